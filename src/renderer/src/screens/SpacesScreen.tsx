import { useState } from 'react';
import type { SpaceStatus } from '../../../shared/contract/spaces';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { OpenPathButton } from '../components/OpenPathButton';
import { StatusPill } from '../components/StatusPill';
import { Switch } from '../components/Switch';
import { useAction } from '../hooks/use-action';
import { useCapabilities } from '../hooks/use-capabilities';
import { useCommand } from '../hooks/use-command';
import { relativeTime } from '../model/format-time';
import { groupByOrganization, spaceStateView } from '../model/spaces-view';

/** Spaces by organization, each with its selective-sync switch, state, revision and last sync. */
export function SpacesScreen() {
  const { state, reload } = useCommand('spaceStatuses', {}, ['status', 'run']);
  const action = useAction();
  const { openPath } = useCapabilities();
  const [listErrors, setListErrors] = useState<readonly string[]>([]);

  const refresh = async () => {
    const listed = await action.run('listSpaces', {});
    if (!listed) return;
    setListErrors(listed.errors);
    reload();
  };
  const toggle = async (space: SpaceStatus, enabled: boolean) => {
    if ((await action.run('setSpaceEnabled', { spaceId: space.id, enabled })) !== null) reload();
  };

  const toolbar = (
    <div className="row">
      <h1>Spaces</h1>
      <Button onClick={() => void refresh()} disabled={action.busy}>
        Refresh list from server
      </Button>
    </div>
  );

  if (state.status === 'loading') return <p>Loading spaces…</p>;
  if (state.status === 'error')
    return (
      <ErrorState title="Spaces could not be read" message={state.error.message} onRetry={reload} />
    );

  const groups = groupByOrganization(state.data);
  return (
    <div className="stack">
      {toolbar}
      {action.error ? (
        <p className="alert" role="alert">
          {action.error.message}
        </p>
      ) : null}
      {listErrors.length > 0 ? (
        <div className="alert warn" role="status">
          <p>Some organizations could not be listed; their spaces are kept as they were:</p>
          <ul>
            {listErrors.map((error, i) => (
              <li key={i}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {groups.length === 0 ? (
        <EmptyState title="No spaces yet">
          Quire has not listed the server's spaces yet. Refresh the list to choose which to sync.
        </EmptyState>
      ) : (
        groups.map((group) => (
          <section key={group.organization} className="card" aria-label={group.organization}>
            <h2>{group.organization}</h2>
            <SpaceTable
              spaces={group.spaces}
              busy={action.busy}
              canOpen={openPath}
              onToggle={toggle}
            />
          </section>
        ))
      )}
    </div>
  );
}

function SpaceTable({
  spaces,
  busy,
  canOpen,
  onToggle,
}: {
  spaces: readonly SpaceStatus[];
  busy: boolean;
  /** The host opens folders (the desktop app, `quire ui`). */
  canOpen: boolean;
  onToggle: (space: SpaceStatus, enabled: boolean) => Promise<void>;
}) {
  const now = new Date();
  return (
    <table className="data-table spaces-table">
      <thead>
        <tr>
          <th scope="col">Space</th>
          <th scope="col">Sync</th>
          <th scope="col">State</th>
          <th scope="col">Revision</th>
          <th scope="col">Pages</th>
          <th scope="col">Last sync</th>
          {canOpen ? (
            <th scope="col">
              <span className="visually-hidden">Folder</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {spaces.map((space) => {
          const view = spaceStateView(space.state);
          return (
            <tr key={space.id}>
              <th scope="row">
                <strong>{space.title}</strong>
                <div className="mono muted">{space.folder}</div>
                {space.errors.map((error, i) => (
                  <div key={i} className="space-error">
                    {error}
                  </div>
                ))}
              </th>
              <td>
                <Switch
                  checked={space.enabled}
                  label={`Sync ${space.title}`}
                  hideLabel
                  disabled={busy || space.state === 'removed'}
                  onChange={(enabled) => void onToggle(space, enabled)}
                />
              </td>
              <td>
                <StatusPill tone={view.tone}>{view.label}</StatusPill>
              </td>
              <td className="mono">{space.revision ?? '—'}</td>
              <td>{space.pages}</td>
              <td>{space.lastSync ? relativeTime(space.lastSync, now) : 'Never'}</td>
              {canOpen ? (
                <td>
                  {space.enabled && space.state !== 'removed' ? (
                    <OpenPathButton
                      target={{ spaceId: space.id }}
                      text="Open folder"
                      label={`Open folder of ${space.title}`}
                    />
                  ) : null}
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
