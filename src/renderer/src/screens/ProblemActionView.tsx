import { Button } from '../components/Button';
import type { ProblemAction } from '../model/problem-view';
import type { RefusedChangeListing } from '../../../shared/contract/local-changes';

export interface ProblemHandlers {
  busy: boolean;
  retry: (refused: RefusedChangeListing) => void;
  drop: (refused: RefusedChangeListing) => void;
  confirmDeletes: (spaceId: string) => void;
}

/** The button (or the advice) that fixes one problem. */
export function ProblemActionView({
  action,
  handlers,
}: {
  action: ProblemAction;
  handlers: ProblemHandlers;
}) {
  switch (action.kind) {
    case 'confirm-deletes':
      return (
        <div className="row">
          <Button
            variant="danger"
            disabled={handlers.busy}
            onClick={() => handlers.confirmDeletes(action.spaceId)}
          >
            Confirm the deletions…
          </Button>
        </div>
      );
    case 'retry-or-drop':
      return (
        <div className="row">
          <Button
            variant="primary"
            disabled={handlers.busy}
            onClick={() => handlers.retry(action.refused)}
          >
            Retry
          </Button>
          <Button disabled={handlers.busy} onClick={() => handlers.drop(action.refused)}>
            Drop…
          </Button>
        </div>
      );
    case 'resolve-conflict':
      return (
        <p>
          <a href="#/conflicts">Resolve it in Conflicts</a>
        </p>
      );
    case 'fix-file':
      return <p className="muted">Fix or move the file on disk; the next sync sends it.</p>;
    case 'none':
      return null;
  }
}
