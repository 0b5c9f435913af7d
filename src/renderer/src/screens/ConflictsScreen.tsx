import type { ConflictKind } from '../../../shared/contract/conflicts';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { OpenPathButton } from '../components/OpenPathButton';
import { useCapabilities } from '../hooks/use-capabilities';
import { useCommand } from '../hooks/use-command';
import { relativeTime } from '../model/format-time';
import { routeHash } from '../model/route';

const KINDS: Record<ConflictKind, string> = {
  content: 'Edited on both sides',
  asset: 'File changed on both sides',
  'deleted-remotely': 'Deleted on the server, edited here',
  'deleted-locally': 'Deleted here, edited on the server',
};

/** The open conflicts, each linking to its side-by-side view. */
export function ConflictsScreen() {
  const { state, reload } = useCommand('conflicts', {}, ['conflicts']);
  const { openPath } = useCapabilities();
  if (state.status === 'loading') return <p>Loading conflicts…</p>;
  if (state.status === 'error')
    return (
      <ErrorState
        title="Conflicts could not be read"
        message={state.error.message}
        onRetry={reload}
      />
    );
  const now = new Date();
  return (
    <div className="stack">
      <h1>Conflicts</h1>
      {state.data.length === 0 ? (
        <EmptyState title="No conflicts">
          When a page changes both here and on the server in the same place, it shows up here for
          you to decide.
        </EmptyState>
      ) : (
        <ul className="list">
          {state.data.map((conflict) => (
            <li key={conflict.id} className="card">
              <h2>
                <a href={routeHash({ screen: 'conflict', id: conflict.id })}>
                  {conflict.pageTitle || conflict.path}
                </a>
              </h2>
              <p className="muted">
                {conflict.spaceTitle} · {KINDS[conflict.kind]} ·{' '}
                {relativeTime(conflict.createdAt, now)}
              </p>
              <p className="mono">{conflict.path}</p>
              <p>{conflict.message}</p>
              {openPath && conflict.kind !== 'deleted-locally' ? (
                <div className="row">
                  <OpenPathButton
                    target={{ conflictId: conflict.id }}
                    text="Open file"
                    label={`Open file of ${conflict.pageTitle || conflict.path}`}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
