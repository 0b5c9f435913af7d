import { useState, type ReactNode } from 'react';
import type { ChangeRequestDetail } from '../../../shared/contract/change-requests';
import type { MetadataDelivery } from '../../../shared/contract/quire-commands';
import type { ReviewVerdict } from '../../../shared/contract/review';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { useCommand } from '../hooks/use-command';
import type { ReviewAction } from '../hooks/use-review-action';
import { describeOutcome } from '../model/review-view';
import { RenameDialog, ReviewDialog } from './ReviewDialogs';

type Open = 'rename' | 'archive' | 'merge' | 'review' | null;

const QUEUED = 'The server cannot be reached: this waits here and goes with the next sync.';

/**
 * What the user can do with a change request. Merge and archive ask first; every outcome
 * (success, conflicts, an offline refusal, the server's refusal) shows through `action`.
 */
export function ChangeRequestActions({
  detail,
  action,
}: {
  detail: ChangeRequestDetail;
  action: ReviewAction;
}) {
  const [open, setOpen] = useState<Open>(null);
  // The server refuses a review of one's own change request: not offered to its author.
  const { state: connection } = useCommand('connection', {});
  const mine =
    connection.status === 'ready' &&
    connection.data.state !== 'new' &&
    connection.data.user.id === detail.author.id;
  const ref = { space: detail.spaceId, number: detail.number };
  const active = detail.status === 'open' || detail.status === 'draft';
  const close = () => setOpen(null);
  const done = (message: string) => () => ({ kind: 'done' as const, message });
  // Offline, the change waits in the cache: say so, rather than claim it was done.
  const delivered = (message: string) => (result: MetadataDelivery) => ({
    kind: 'done' as const,
    message: result.delivery === 'queued' ? `${message} ${QUEUED}` : message,
  });

  const setStatus = (status: 'open' | 'archived' | 'draft', message: string) => {
    close();
    void action.run('setChangeRequestStatus', { ...ref, status }, delivered(message));
  };
  const merge = () => {
    close();
    void action.run('mergeChangeRequest', ref, (outcome) => describeOutcome('merge', outcome));
  };
  const review = (verdict: ReviewVerdict, comment: string | null) => {
    close();
    const said = verdict === 'approved' ? 'Approved.' : 'Changes requested.';
    void action.run('reviewChangeRequest', { ...ref, verdict, comment }, done(said));
  };
  const rename = (subject: string) => {
    close();
    void action.run('setChangeRequestSubject', { ...ref, subject }, delivered('Subject changed.'));
  };

  return (
    <div className="row action-bar" role="group" aria-label="Change request actions">
      <Button disabled={action.busy} onClick={() => setOpen('rename')}>
        Rename…
      </Button>
      {detail.status === 'draft' ? (
        <Button
          variant="primary"
          disabled={action.busy}
          onClick={() => setStatus('open', 'Marked ready for review.')}
        >
          Ready for review
        </Button>
      ) : null}
      {active ? (
        <>
          {mine ? null : (
            <Button disabled={action.busy} onClick={() => setOpen('review')}>
              Review…
            </Button>
          )}
          <Button variant="primary" disabled={action.busy} onClick={() => setOpen('merge')}>
            Merge…
          </Button>
          <Button variant="danger" disabled={action.busy} onClick={() => setOpen('archive')}>
            Archive…
          </Button>
        </>
      ) : null}
      {detail.status === 'archived' ? (
        <Button disabled={action.busy} onClick={() => setStatus('draft', 'Reopened as a draft.')}>
          Reopen as draft
        </Button>
      ) : null}
      <KeepActions detail={detail} action={action} />
      <RenameDialog
        open={open === 'rename'}
        subject={detail.subject}
        onSave={rename}
        onClose={close}
      />
      <ReviewDialog open={open === 'review'} onReview={review} onClose={close} />
      <Confirm
        open={open === 'merge'}
        title={`Merge #${detail.number} into main?`}
        confirm="Merge"
        variant="primary"
        onConfirm={merge}
        onClose={close}
      >
        Its changes go into the main content of {detail.space}. This cannot be undone from here.
      </Confirm>
      <Confirm
        open={open === 'archive'}
        title={`Archive #${detail.number}?`}
        confirm="Archive"
        onConfirm={() => setStatus('archived', 'Archived.')}
        onClose={close}
      >
        It closes without merging. Its content and comments stay; it can be reopened.
      </Confirm>
    </div>
  );
}

function Confirm({
  open,
  title,
  confirm,
  variant = 'danger',
  children,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  confirm: string;
  /** Merging is the change request's purpose (primary); archiving closes it unmerged (danger). */
  variant?: 'primary' | 'danger';
  children: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant={variant} onClick={onConfirm}>
            {confirm}
          </Button>
        </>
      }
    >
      <p>{children}</p>
    </Dialog>
  );
}

/** Actions that keep a copy or keep it around: a PDF, a checkout folder, the mirror's pin. */
function KeepActions({ detail, action }: { detail: ChangeRequestDetail; action: ReviewAction }) {
  const ref = { space: detail.spaceId, number: detail.number };
  const pin = detail.pinned
    ? 'Unpinned: it leaves the mirror once closed.'
    : 'Pinned: it stays mirrored whatever its status.';
  return (
    <>
      <Button
        disabled={action.busy}
        onClick={() =>
          void action.run('exportChangeRequestPdf', { ...ref, pageId: null, file: null }, (r) => ({
            kind: 'done',
            message: `PDF saved to ${r.file}.`,
          }))
        }
      >
        Export PDF
      </Button>
      {detail.status === 'open' || detail.status === 'draft' ? (
        <Button
          disabled={action.busy}
          onClick={() =>
            void action.run('checkoutChangeRequest', ref, (checkout) => ({
              kind: 'done',
              message: `Checked out to ${checkout.folder}. Edits there go to this change request.`,
            }))
          }
        >
          Check out
        </Button>
      ) : null}
      <Button
        aria-pressed={detail.pinned}
        disabled={action.busy}
        onClick={() =>
          void action.run('pinChangeRequest', { ...ref, pinned: !detail.pinned }, () => ({
            kind: 'done',
            message: pin,
          }))
        }
      >
        Pin
      </Button>
    </>
  );
}
