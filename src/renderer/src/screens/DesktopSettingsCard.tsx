import { useEffect, useState } from 'react';
import type { DesktopSettings } from '../../../shared/contract/host';
import { ErrorState } from '../components/ErrorState';
import { Switch } from '../components/Switch';
import { useAction } from '../hooks/use-action';
import { useCommand } from '../hooks/use-command';

/** The desktop app's own settings: launch at login and notifications (absent under `quire ui`). */
export function DesktopSettingsCard() {
  const { state, reload } = useCommand('desktopSettings', {});
  const action = useAction();
  const [settings, setSettings] = useState<DesktopSettings | null>(null);
  useEffect(() => {
    if (state.status === 'ready') setSettings(state.data);
  }, [state]);

  if (state.status === 'error')
    return (
      <ErrorState
        title="Desktop settings could not be read"
        message={state.error.message}
        onRetry={reload}
      />
    );
  if (settings === null) return <p>Loading desktop settings…</p>;
  const change = async (update: Partial<DesktopSettings>) => {
    const result = await action.run('updateDesktopSettings', update);
    if (result) setSettings(result);
  };
  return (
    <section className="card stack" aria-labelledby="desktop-settings-title">
      <h2 id="desktop-settings-title">This computer</h2>
      <Switch
        checked={settings.launchAtLogin}
        label="Open Quire at login (in the tray, syncing)"
        disabled={action.busy}
        onChange={(launchAtLogin) => void change({ launchAtLogin })}
      />
      <Switch
        checked={settings.notifications}
        label="Notifications for conflicts, refused changes, a rejected token and mass deletes"
        disabled={action.busy}
        onChange={(notifications) => void change({ notifications })}
      />
      {action.error ? (
        <p className="alert" role="alert">
          {action.error.message}
        </p>
      ) : null}
    </section>
  );
}

/** Where the OS offers no keyring, says that the token is stored as good as unencrypted. */
export function KeyringNotice() {
  const { state } = useCommand('connection', {});
  if (state.status !== 'ready' || state.data.plainTextSecrets !== true) return null;
  return (
    <p className="alert warn" role="status">
      No keyring protects your token on this computer: it is saved without encryption, readable by
      anyone who can read your files. Install and unlock a keyring (for example GNOME Keyring) and
      sign in again to encrypt it.
    </p>
  );
}
