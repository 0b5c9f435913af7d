import { useState } from 'react';
import type { RefusedChangeListing } from '../../../shared/contract/local-changes';
import type { SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { OpenPathButton } from '../components/OpenPathButton';
import { useAction } from '../hooks/use-action';
import { useCapabilities } from '../hooks/use-capabilities';
import { useCommand } from '../hooks/use-command';
import {
  problemAction,
  problemTitle,
  unlistedRefused,
  type ProblemAction,
} from '../model/problem-view';
import { ProblemActionView, type ProblemHandlers } from './ProblemActionView';

/** A question the user must answer before a destructive action runs. */
export type Confirmation =
  | { kind: 'confirm-deletes'; spaceId: string; spaceTitle: string }
  | { kind: 'drop'; refused: RefusedChangeListing };

/** Each file not pushed (or not written) and why, with the action that fixes it. */
export function ProblemsScreen({
  status,
  onChanged,
}: {
  status: SyncStatusSnapshot | null;
  onChanged: () => void;
}) {
  const refused = useCommand('refusedChanges', {}, ['problems', 'status']);
  const action = useAction();
  const { openPath } = useCapabilities();
  const [confirming, setConfirming] = useState<Confirmation | null>(null);

  const done = () => {
    refused.reload();
    onChanged();
  };
  const run = async (act: () => Promise<unknown>) => {
    if ((await act()) !== null) done();
  };
  const confirm = async () => {
    const question = confirming;
    setConfirming(null);
    if (question?.kind === 'confirm-deletes')
      await run(() => action.run('confirmDeletes', { spaceId: question.spaceId }));
    if (question?.kind === 'drop')
      await run(() => action.run('dropRefused', { id: question.refused.id }));
  };

  if (!status || refused.state.status === 'loading') return <p>Loading problems…</p>;
  if (refused.state.status === 'error')
    return (
      <ErrorState
        title="Problems could not be read"
        message={refused.state.error.message}
        onRetry={refused.reload}
      />
    );

  const refusedList = refused.state.data;
  const extra = unlistedRefused(status.problems, refusedList);
  const spaceTitle = (id: string) => status.spaces.find((s) => s.id === id)?.title ?? id;
  const handlers = {
    busy: action.busy,
    retry: (r: RefusedChangeListing) => void run(() => action.run('retryRefused', { id: r.id })),
    drop: (r: RefusedChangeListing) => setConfirming({ kind: 'drop', refused: r }),
    confirmDeletes: (spaceId: string) =>
      setConfirming({ kind: 'confirm-deletes', spaceId, spaceTitle: spaceTitle(spaceId) }),
  };
  const nothing = status.problems.length === 0 && extra.length === 0 && !status.paused;

  return (
    <div className="stack">
      <h1>Problems</h1>
      {action.error ? (
        <p className="alert" role="alert">
          {action.error.message}
        </p>
      ) : null}
      {status.paused ? (
        <section className="card row" aria-label="Paused">
          <span>Sending your edits is paused; they are recorded and wait.</span>
          <Button onClick={() => void run(() => action.run('resume', {}))} disabled={action.busy}>
            Resume
          </Button>
        </section>
      ) : null}
      {nothing ? (
        <EmptyState title="Nothing is stuck">
          Every edit was sent and every file written.
        </EmptyState>
      ) : (
        <ul className="list">
          {status.problems.map((problem, i) => (
            <ProblemItem
              key={`p${i}`}
              title={problemTitle(problem.kind)}
              space={spaceTitle(problem.spaceId)}
              path={problem.path}
              canOpen={openPath}
              message={problem.message}
              action={problemAction(problem, refusedList)}
              handlers={handlers}
            />
          ))}
          {extra.map((r) => (
            <ProblemItem
              key={`r${r.id}`}
              title={problemTitle('push-failed')}
              space={spaceTitle(r.spaceId)}
              path={r.path}
              canOpen={openPath}
              message={r.reason}
              action={{ kind: 'retry-or-drop', refused: r }}
              handlers={handlers}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        question={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
      />
    </div>
  );
}

function ProblemItem(props: {
  title: string;
  space: string;
  /** Relative to the mirror folder. */
  path: string;
  /** The host opens files: offer to open this one. */
  canOpen: boolean;
  message: string;
  action: ProblemAction;
  handlers: ProblemHandlers;
}) {
  return (
    <li className="card stack">
      <div>
        <h2>{props.title}</h2>
        <p className="muted">
          {props.space} · <span className="mono">{props.path}</span>
        </p>
        <p>{props.message}</p>
      </div>
      <ProblemActionView action={props.action} handlers={props.handlers} />
      {props.canOpen ? (
        <div className="row">
          <OpenPathButton
            target={{ path: props.path }}
            text="Open file"
            label={`Open file ${props.path}`}
          />
        </div>
      ) : null}
    </li>
  );
}

function ConfirmDialog({
  question,
  onCancel,
  onConfirm,
}: {
  question: Confirmation | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const deletes = question?.kind === 'confirm-deletes';
  return (
    <Dialog
      open={question !== null}
      title={deletes ? 'Delete these pages on the server?' : 'Drop this change?'}
      onClose={onCancel}
      actions={
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button variant="danger" onClick={onConfirm}>
            {deletes ? 'Delete on the server' : 'Drop the change'}
          </Button>
        </>
      }
    >
      {question?.kind === 'confirm-deletes' ? (
        <p>
          The next sync deletes more than half of the pages of “{question.spaceTitle}” on the
          server, because their files are gone here. Go ahead only if you meant to delete them.
        </p>
      ) : question?.kind === 'drop' ? (
        <p>
          The server will not get this change to{' '}
          <span className="mono">{question.refused.path}</span>. The file stays here as a local-only
          edit.
        </p>
      ) : null}
    </Dialog>
  );
}
