import { useState, type FormEvent } from 'react';
import type { LoginResult } from '../../../shared/contract/connection';
import { Button } from '../components/Button';
import { useAction } from '../hooks/use-action';
import { connectErrorText } from '../model/connect-error';

/**
 * "Try the demo workspace": the host starts its embedded server with the demo data and Quire
 * syncs it into the folder picked here. Shown only where the host can (the desktop app).
 */
export function TryDemo({ onConnected }: { onConnected: (result: LoginResult) => void }) {
  const action = useAction();
  const [folder, setFolder] = useState('');
  const error = action.error ? connectErrorText(action.error).message : null;
  const start = async (event: FormEvent) => {
    event.preventDefault();
    const result = await action.run('startDemo', { folder: folder.trim() });
    if (result) onConnected(result);
  };
  return (
    <section className="card demo-offer" aria-labelledby="demo-title">
      <h2 id="demo-title">No server yet?</h2>
      <p className="muted">
        Try Quire with a demo workspace: a server on this computer with sample spaces, synced into a
        folder you pick.
      </p>
      <form className="form" onSubmit={(event) => void start(event)} noValidate>
        <div className="field">
          <label htmlFor="demo-folder">Where to sync the demo</label>
          <span className="hint" id="demo-folder-hint">
            Created when missing, for example ~/Quire demo.
          </span>
          <input
            id="demo-folder"
            value={folder}
            required
            aria-invalid={error !== null}
            aria-describedby={error ? 'demo-folder-hint demo-error' : 'demo-folder-hint'}
            onChange={(event) => setFolder(event.target.value)}
          />
          {error ? (
            <span className="field-error" id="demo-error" role="alert">
              {error}
            </span>
          ) : null}
        </div>
        <div className="row">
          <Button type="submit" disabled={action.busy || folder.trim() === ''}>
            {action.busy ? 'Starting the demo…' : 'Try the demo workspace'}
          </Button>
        </div>
      </form>
    </section>
  );
}
