import type { ChangeRequestDetail } from '../../../shared/contract/change-requests';
import { Button } from '../components/Button';
import { StatusPill } from '../components/StatusPill';
import type { ReviewAction } from '../hooks/use-review-action';
import { describeOutcome } from '../model/review-view';
import { CheckoutNote } from './CheckoutNote';

/**
 * Whether it can merge: up to date with main or not (then "Update from main"), and the pages
 * in conflict after the last merge or update attempt (shown by the outcome above).
 */
export function ChecksPanel({
  detail,
  action,
}: {
  detail: ChangeRequestDetail;
  action: ReviewAction;
}) {
  const ref = { space: detail.spaceId, number: detail.number };
  const conflicts = action.outcome?.kind === 'conflicts' ? action.outcome.pages.length : 0;
  return (
    <section className="card stack" aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <ul className="plain-list">
        <li className="row">
          {detail.outdated ? (
            <>
              <StatusPill tone="warn">Outdated</StatusPill>
              <span>Main changed since this change request started.</span>
              <Button
                disabled={action.busy}
                onClick={() =>
                  void action.run('updateChangeRequest', ref, (outcome) =>
                    describeOutcome('update', outcome),
                  )
                }
              >
                Update from main
              </Button>
            </>
          ) : (
            <>
              <StatusPill tone="ok">Up to date</StatusPill>
              <span>Based on the latest main.</span>
            </>
          )}
        </li>
        <CheckoutNote detail={detail} />
        {conflicts > 0 ? (
          <li className="row">
            <StatusPill tone="danger">Conflicts</StatusPill>
            <span>
              {conflicts === 1 ? '1 page changed' : `${conflicts} pages changed`} on both sides
              (listed above).
            </span>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
