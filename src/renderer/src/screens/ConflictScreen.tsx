import { useState } from 'react';
import type {
  ConflictResolutionChoice,
  ConflictVersions,
} from '../../../shared/contract/conflicts';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { ErrorState } from '../components/ErrorState';
import { useAction } from '../hooks/use-action';
import { useCommand } from '../hooks/use-command';
import { conflictColumns } from '../model/conflict-diff';
import { conflictMarkers, hasConflictMarkers } from '../../../shared/conflict-markers';
import type { Route } from '../model/route';
import { DiffColumns } from './DiffColumns';

/** The same markers as `quire conflicts show`, named for someone reading them in the app. */
const MARKER_LABELS = { mine: 'mine (this computer)', theirs: 'theirs (server)' };

/**
 * One conflict: base, mine and theirs side by side, and the three ways out. The file on disk
 * changes only when the user picks one.
 */
export function ConflictScreen({ id, navigate }: { id: number; navigate: (route: Route) => void }) {
  const { state, reload } = useCommand('conflictVersions', { id });
  if (state.status === 'loading') return <p>Loading the conflict…</p>;
  if (state.status === 'error') {
    const gone = state.error.kind === 'unknown-conflict';
    return (
      <div className="stack">
        <ErrorState
          title={gone ? 'This conflict is settled' : 'The conflict could not be read'}
          message={state.error.message}
          onRetry={gone ? undefined : reload}
        />
        <p>
          <a href="#/conflicts">Back to the conflicts</a>
        </p>
      </div>
    );
  }
  return (
    <ConflictView versions={state.data} onResolved={() => navigate({ screen: 'conflicts' })} />
  );
}

function ConflictView({
  versions,
  onResolved,
}: {
  versions: ConflictVersions;
  onResolved: () => void;
}) {
  const { conflict, base, mine, theirs, binary } = versions;
  const action = useAction();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmMarkers, setConfirmMarkers] = useState(false);

  const resolve = async (choice: ConflictResolutionChoice) => {
    setConfirmMarkers(false);
    if (await action.run('resolveConflict', { id: conflict.id, choice })) onResolved();
  };
  const saveMerged = () => {
    if (editing === null) return;
    if (hasConflictMarkers(editing)) setConfirmMarkers(true);
    else void resolve({ mode: 'merged', text: editing });
  };

  return (
    <div className="stack">
      <p>
        <a href="#/conflicts">Back to the conflicts</a>
      </p>
      <h1>{conflict.pageTitle || conflict.path}</h1>
      <p className="muted">
        {conflict.spaceTitle} · <span className="mono">{conflict.path}</span>
      </p>
      <p>{conflict.message}</p>
      {action.error ? (
        <p className="alert" role="alert">
          {action.error.message}
        </p>
      ) : null}
      {binary ? (
        <p className="alert warn">
          This file is not text: its versions cannot be shown. Keep yours or take the server's.
        </p>
      ) : (
        <DiffColumns columns={conflictColumns(base, mine, theirs)} />
      )}
      <div className="row" role="group" aria-label="Resolve the conflict">
        <Button
          variant="primary"
          disabled={action.busy}
          onClick={() => void resolve({ mode: 'mine' })}
        >
          Keep mine
        </Button>
        <Button disabled={action.busy} onClick={() => void resolve({ mode: 'theirs' })}>
          Take theirs
        </Button>
        {binary ? null : (
          <Button
            disabled={action.busy}
            aria-expanded={editing !== null}
            onClick={() =>
              setEditing(editing ?? conflictMarkers(base, mine, theirs, MARKER_LABELS).text)
            }
          >
            Edit merged
          </Button>
        )}
      </div>
      {editing !== null ? (
        <section className="stack" aria-label="Merged version">
          <div className="field">
            <label htmlFor="merged-text">Merged version</label>
            <span className="hint" id="merged-hint">
              Both sides' changes, with markers (&lt;&lt;&lt;&lt;&lt;&lt;&lt; =======
              &gt;&gt;&gt;&gt;&gt;&gt;&gt;) around the places both changed. Edit them out, then
              save.
            </span>
            <textarea
              id="merged-text"
              className="merge-editor"
              aria-describedby="merged-hint"
              value={editing}
              spellCheck={false}
              onChange={(event) => setEditing(event.target.value)}
            />
          </div>
          <div className="row">
            <Button variant="primary" disabled={action.busy} onClick={saveMerged}>
              Save merged version
            </Button>
            <Button onClick={() => setEditing(null)}>Cancel</Button>
          </div>
        </section>
      ) : null}
      <Dialog
        open={confirmMarkers}
        title="Conflict markers are still there"
        onClose={() => setConfirmMarkers(false)}
        actions={
          <>
            <Button onClick={() => setConfirmMarkers(false)}>Keep editing</Button>
            <Button
              variant="danger"
              onClick={() => editing !== null && void resolve({ mode: 'merged', text: editing })}
            >
              Save with markers
            </Button>
          </>
        }
      >
        <p>The merged text still has conflict markers. Save it as it is?</p>
      </Dialog>
    </div>
  );
}
