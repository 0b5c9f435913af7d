import type { ChangeRequestDetail } from '../../../shared/contract/change-requests';
import { useCommand } from '../hooks/use-command';
import { plural } from '../model/format-time';
import { REVIEW_EVENTS } from '../model/review-view';

/**
 * Where this change request is checked out, if it is, and what waits there to be pushed. Says
 * nothing when the engine cannot tell (no checkouts on this host): it is a note, not a check.
 */
export function CheckoutNote({ detail }: { detail: ChangeRequestDetail }) {
  const { state } = useCommand('checkouts', {}, REVIEW_EVENTS);
  if (state.status !== 'ready') return null;
  const checkout = state.data.find(
    (c) => c.spaceId === detail.spaceId && c.number === detail.number,
  );
  if (!checkout) return null;
  return (
    <li className="stack checkout-note">
      <span>
        Checked out in <span className="mono">{checkout.folder}</span>
        {checkout.pending > 0 ? ` · ${plural(checkout.pending, 'edit')} waiting to be sent` : ''}
      </span>
      {checkout.closedWithPendingEdits ? (
        <span className="alert warn" role="alert">
          This change request was closed on the server while edits in its folder were unsent. The
          folder stays, with them, until you deal with them.
        </span>
      ) : null}
    </li>
  );
}
