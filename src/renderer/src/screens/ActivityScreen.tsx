import { useEffect, useState } from 'react';
import type { ActivityEntry } from '../../../shared/contract/activity';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { StatusPill } from '../components/StatusPill';
import { useBridge } from '../hooks/use-bridge';
import { useCommand } from '../hooks/use-command';
import { relativeTime } from '../model/format-time';
import { activityKindView, mergeActivity } from '../model/activity-view';

const LIMIT = 200;

/** What was pulled, pushed and merged, newest first; new lines arrive as events. */
export function ActivityScreen() {
  const bridge = useBridge();
  const { state, reload } = useCommand('activity', { limit: LIMIT });
  const [added, setAdded] = useState<ActivityEntry[]>([]);
  useEffect(() => {
    if (!bridge) return;
    return bridge.on('activity', (entry) => setAdded((list) => [entry, ...list].slice(0, LIMIT)));
  }, [bridge]);

  if (state.status === 'loading') return <p>Loading activity…</p>;
  if (state.status === 'error')
    return (
      <ErrorState
        title="Activity could not be read"
        message={state.error.message}
        onRetry={reload}
      />
    );
  const entries = mergeActivity(state.data, added, LIMIT);
  const now = new Date();
  return (
    <div className="stack">
      <h1>Activity</h1>
      {entries.length === 0 ? (
        <EmptyState title="Nothing happened yet">
          Pulls, pushes, merges and resolved conflicts are listed here as they happen.
        </EmptyState>
      ) : (
        <ol className="list" aria-label="Activity, newest first">
          {entries.map((entry) => {
            const kind = activityKindView(entry.kind);
            return (
              <li key={entry.id} className="card">
                <div className="row">
                  <StatusPill tone={kind.tone}>{kind.label}</StatusPill>
                  {entry.spaceTitle ? <strong>{entry.spaceTitle}</strong> : null}
                  <time className="muted" dateTime={entry.at} title={entry.at}>
                    {relativeTime(entry.at, now)}
                  </time>
                </div>
                <p>{entry.summary}</p>
                {entry.files.length > 0 ? (
                  <ul className="mono muted">
                    {entry.files.map((file) => (
                      <li key={file}>{file}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
