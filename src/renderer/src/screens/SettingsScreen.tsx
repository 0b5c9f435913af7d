import { useState, type FormEvent } from 'react';
import type { QuireSettings } from '../../../shared/contract/connection';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { ErrorState } from '../components/ErrorState';
import { useAction } from '../hooks/use-action';
import { useCapabilities } from '../hooks/use-capabilities';
import { useCommand } from '../hooks/use-command';
import { DesktopSettingsCard, KeyringNotice } from './DesktopSettingsCard';
import { MoveFolderDialog } from './MoveFolderDialog';

/**
 * Server and folder (chosen at sign-in; the folder can move), the change-request subject, the
 * pull interval, ignore patterns, sign out.
 */
export function SettingsScreen({ onSignedOut }: { onSignedOut: () => void }) {
  const { state, reload } = useCommand('settings', {});
  if (state.status === 'loading') return <p>Loading settings…</p>;
  if (state.status === 'error')
    return (
      <ErrorState
        title="Settings could not be read"
        message={state.error.message}
        onRetry={reload}
      />
    );
  return <SettingsForm settings={state.data} onSaved={reload} onSignedOut={onSignedOut} />;
}

function SettingsForm({
  settings,
  onSaved,
  onSignedOut,
}: {
  settings: QuireSettings;
  onSaved: () => void;
  onSignedOut: () => void;
}) {
  const action = useAction();
  const capabilities = useCapabilities();
  const [subject, setSubject] = useState(settings.changeRequestSubject ?? '');
  const [minutes, setMinutes] = useState(String(Math.round(settings.syncIntervalMs / 60_000)));
  const [ignored, setIgnored] = useState(settings.ignorePatterns.join('\n'));
  const [saved, setSaved] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [moving, setMoving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const interval = Number(minutes);
    const result = await action.run('updateSettings', {
      changeRequestSubject: subject.trim() === '' ? null : subject.trim(),
      ...(Number.isFinite(interval) && interval > 0
        ? { syncIntervalMs: Math.round(interval * 60_000) }
        : {}),
      ignorePatterns: ignored.split('\n').filter((line) => line.trim() !== ''),
    });
    if (result) {
      setSaved(true);
      onSaved();
    }
  };
  const signOut = async () => {
    setSigningOut(false);
    if (await action.run('logout', {})) onSignedOut();
  };

  return (
    <div className="stack">
      <h1>Settings</h1>
      <section className="card" aria-label="Account">
        <h2>Server and folder</h2>
        <dl>
          <dt className="muted">Server</dt>
          <dd className="mono">{settings.server}</dd>
          <dt className="muted">Folder</dt>
          <dd className="mono">{settings.folder}</dd>
        </dl>
        <KeyringNotice />
        <div className="row">
          <Button onClick={() => setMoving(true)} disabled={action.busy}>
            Move folder…
          </Button>
          <Button variant="danger" onClick={() => setSigningOut(true)} disabled={action.busy}>
            Sign out…
          </Button>
        </div>
      </section>
      <form className="form card" onSubmit={(event) => void save(event)} aria-label="Sync settings">
        <div className="field">
          <label htmlFor="cr-subject">Subject of working change requests</label>
          <input
            id="cr-subject"
            value={subject}
            placeholder={settings.defaultChangeRequestSubject}
            aria-describedby="cr-subject-hint"
            onChange={(event) => setSubject(event.target.value)}
          />
          <span className="hint" id="cr-subject-hint">
            Empty: “{settings.defaultChangeRequestSubject}”.
          </span>
        </div>
        <div className="field">
          <label htmlFor="interval">Check the server every (minutes)</label>
          <input
            id="interval"
            type="number"
            min={1}
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="ignore-patterns">Files to leave out of the sync</label>
          <textarea
            id="ignore-patterns"
            className="mono"
            rows={4}
            value={ignored}
            placeholder={'drafts/\n*.bak'}
            aria-describedby="ignore-patterns-hint"
            onChange={(event) => setIgnored(event.target.value)}
          />
          <span className="hint" id="ignore-patterns-hint">
            One pattern per line, in every space folder: <code>*</code> within a name,{' '}
            <code>**</code> across folders, a trailing <code>/</code> for folders. They stay on this
            computer and are never sent.
          </span>
        </div>
        {action.error ? (
          <p className="alert" role="alert">
            {action.error.message}
          </p>
        ) : null}
        {saved ? <p role="status">Saved.</p> : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={action.busy}>
            Save
          </Button>
        </div>
      </form>
      {capabilities.desktopSettings ? <DesktopSettingsCard /> : null}
      <MoveFolderDialog
        open={moving}
        current={settings.folder}
        onClose={() => setMoving(false)}
        onMoved={() => {
          setMoving(false);
          onSaved();
        }}
      />
      <Dialog
        open={signingOut}
        title="Sign out?"
        onClose={() => setSigningOut(false)}
        actions={
          <>
            <Button onClick={() => setSigningOut(false)}>Cancel</Button>
            <Button variant="danger" onClick={() => void signOut()}>
              Sign out
            </Button>
          </>
        }
      >
        <p>Quire forgets the token and stops syncing. Your folder and its files stay.</p>
      </Dialog>
    </div>
  );
}
