import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import type { LoginResult } from '../../../shared/contract/connection';
import { Button } from '../components/Button';
import { useAction } from '../hooks/use-action';
import { useCapabilities } from '../hooks/use-capabilities';
import { connectErrorText, type ConnectField } from '../model/connect-error';
import { TryDemo } from './TryDemo';

export interface ConnectDefaults {
  server: string;
  folder: string;
}

/** First run (and signing in again): the server's address, a token and the folder to sync into. */
export function ConnectScreen({
  defaults,
  onConnected,
  canGoBack = false,
  plainTextSecrets = false,
}: {
  defaults: ConnectDefaults;
  onConnected: (result: LoginResult) => void;
  /** Signed in already (signing in again): offer the way back to the app. */
  canGoBack?: boolean;
  /** The OS offers no keyring: the token would be saved as good as plain text. */
  plainTextSecrets?: boolean;
}) {
  const action = useAction();
  const capabilities = useCapabilities();
  const check = useAction();
  const [server, setServer] = useState(defaults.server);
  const [token, setToken] = useState('');
  const [folder, setFolder] = useState(defaults.folder);
  const [cleartext, setCleartext] = useState(false);
  const error = action.error ? connectErrorText(action.error) : null;
  const fieldError = (field: ConnectField) => (error?.field === field ? error.message : null);

  const checkServer = async () => {
    if (server.trim() === '') return;
    const result = await check.run('checkServerUrl', { server: server.trim() });
    setCleartext(result?.cleartext ?? false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await action.run('login', {
      server: server.trim(),
      token: token.trim(),
      folder: folder.trim(),
    });
    if (result) onConnected(result);
  };

  return (
    <main className="first-run" id="main">
      <h1>Connect Quire to your workspace</h1>
      <p className="muted">
        Quire keeps a folder on this computer in sync with the spaces of a documentation server.
      </p>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          id="server"
          label="Server address"
          hint="For example https://docs.example.com"
          error={
            fieldError('server') ?? (check.error ? connectErrorText(check.error).message : null)
          }
          input={{
            type: 'url',
            autoComplete: 'url',
            value: server,
            onChange: (event) => setServer(event.target.value),
            onBlur: () => void checkServer(),
          }}
        />
        {cleartext ? (
          <p className="alert warn" role="status">
            This address uses plain http to another computer: the token would cross the network
            unencrypted.
          </p>
        ) : null}
        <Field
          id="token"
          label="Access token"
          hint="Create one in your account settings on the server."
          error={fieldError('token')}
          input={{
            type: 'password',
            autoComplete: 'off',
            value: token,
            onChange: (event) => setToken(event.target.value),
          }}
        />
        {plainTextSecrets ? (
          <p className="alert warn" role="status">
            This computer offers no keyring (such as GNOME Keyring) to encrypt the token: Quire will
            ask before saving it unencrypted.
          </p>
        ) : null}
        <Field
          id="folder"
          label="Folder"
          hint="Where the pages are written; created when missing."
          error={fieldError('folder')}
          input={{ value: folder, onChange: (event) => setFolder(event.target.value) }}
        />
        {error && error.field === null ? (
          <p className="alert" role="alert">
            {error.message}
          </p>
        ) : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={action.busy}>
            {action.busy ? 'Connecting…' : 'Connect'}
          </Button>
          {canGoBack ? <a href="#/spaces">Back to Quire</a> : null}
        </div>
      </form>
      {capabilities.startDemo && !canGoBack ? <TryDemo onConnected={onConnected} /> : null}
    </main>
  );
}

function Field({
  id,
  label,
  hint,
  error,
  input,
}: {
  id: string;
  label: string;
  hint: string;
  error: string | null;
  input: InputHTMLAttributes<HTMLInputElement>;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
      <input
        {...input}
        id={id}
        required
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
