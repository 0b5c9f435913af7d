import { useState } from 'react';
import type { SyncProgress, SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { ProgressBar } from '../components/ProgressBar';
import { StatusPill } from '../components/StatusPill';
import { useAction } from '../hooks/use-action';
import { useEventValue } from '../hooks/use-command';
import { useNow } from '../hooks/use-now';
import { headerStatus, progressLabel } from '../model/header-status';
import { pauseUntil, type PauseChoice } from '../model/pause-choice';
import { routeHash } from '../model/route';

/** The app's header: the overall state, what waits, the last sync, progress, and the sync controls. */
export function Header({
  status,
  onChanged,
}: {
  status: SyncStatusSnapshot | null;
  onChanged: () => void;
}) {
  const progress = useEventValue<'progress', SyncProgress | null>('progress', null, (p) => p);
  const action = useAction();
  const [pausing, setPausing] = useState(false);
  const now = useNow();
  const view = status ? headerStatus(status, now) : null;
  const bar = progressLabel(progress);

  const pause = async (choice: PauseChoice) => {
    setPausing(false);
    if (await action.run('pause', { until: pauseUntil(choice, new Date()) })) onChanged();
  };
  const resume = async () => {
    if (await action.run('resume', {})) onChanged();
  };
  const syncNow = async () => {
    if (await action.run('syncNow', {})) onChanged();
  };

  return (
    <header className="shell-header">
      <p className="brand">Quire</p>
      <div className="status" aria-live="polite">
        <div className="status-line">
          {view ? (
            <StatusPill tone={view.tone}>{view.label}</StatusPill>
          ) : (
            <span>Loading status…</span>
          )}
          {view ? <span>{view.pending}</span> : null}
          {view ? <span>{view.lastSync}</span> : null}
        </div>
        {view?.detail ? <span className="muted">{view.detail}</span> : null}
        {bar ? (
          <>
            <span className="muted progress-label">{bar}</span>
            <ProgressBar label={bar} value={progress?.done ?? 0} max={progress?.total ?? 0} />
          </>
        ) : null}
        {action.error ? (
          <span role="alert" className="muted">
            {action.error.message}
          </span>
        ) : null}
      </div>
      <div className="actions">
        {status?.tokenRejected ? (
          <a className="btn btn-primary" href={routeHash({ screen: 'connect' })}>
            Sign in again
          </a>
        ) : null}
        <Button
          variant={status?.tokenRejected ? 'default' : 'primary'}
          onClick={() => void syncNow()}
          disabled={action.busy}
        >
          Sync now
        </Button>
        {view?.paused ? (
          <Button onClick={() => void resume()} disabled={action.busy}>
            Resume
          </Button>
        ) : (
          <Button onClick={() => setPausing(true)} disabled={action.busy || !view}>
            Pause…
          </Button>
        )}
      </div>
      <Dialog
        open={pausing}
        title="Pause sending your edits"
        onClose={() => setPausing(false)}
        actions={
          <>
            <Button onClick={() => void pause('30m')}>30 minutes</Button>
            <Button onClick={() => void pause('1h')}>1 hour</Button>
            <Button onClick={() => void pause('resume')}>Until I resume</Button>
            <Button onClick={() => setPausing(false)}>Cancel</Button>
          </>
        }
      >
        <p>Your edits are still recorded while paused, and sent when you resume.</p>
      </Dialog>
    </header>
  );
}
