import { mkdir, stat } from 'node:fs/promises';
import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import type { LoginRequest, LoginResult, ServerUrlCheck } from '../../shared/contract/connection';
import {
  ensureQuireHome,
  readQuireConfig,
  writeQuireConfig,
  type QuireConfig,
} from '../config/quire-home';
import { isInsideRoot } from '../mirror/resolve-inside';
import { RemoteAuthError, RemoteError, RemoteUnavailableError } from '../remote/errors';
import { serverTokenKey } from '../secrets/file-secret-store';
import type { RemoteWorkspace } from '../sync-ports';
import type { AppServices } from './app-services';
import { absoluteFolder } from './folder-path';
import { otherMirrorWarning } from './other-mirror-warning';
import { parseServerUrl, ServerUrlError } from './server-url';

/** Checks a server address as typed: its origin, or `invalid-argument` saying what is wrong. */
export function checkServerUrl(input: string): ServerUrlCheck {
  try {
    return parseServerUrl(input);
  } catch (error) {
    if (!(error instanceof ServerUrlError)) throw error;
    // A URL with an `@` may carry a password: say what is wrong without repeating it.
    const shown = input.includes('@') ? '' : ` ${JSON.stringify(input)}`;
    throw failed({
      kind: 'invalid-argument',
      field: 'server',
      message: `invalid server URL${shown}: ${error.message}`,
    });
  }
}

export interface LoginDeps {
  readonly services: AppServices;
  /** For the other-mirror check: where the default home is. */
  readonly env: NodeJS.ProcessEnv;
  /** Every client made for a login is kept, so what follows reuses it. */
  readonly connect: (server: string, token: string) => RemoteWorkspace;
}

/**
 * Checks the token with the server, creates the mirror folder, stores the token and the
 * configuration. A home keeps its server and folder: logging in elsewhere needs another home.
 */
export async function login(deps: LoginDeps, request: LoginRequest): Promise<LoginResult> {
  const { home, secrets } = deps.services;
  const server = checkServerUrl(request.server);
  const folder = absoluteFolder(request.folder);
  if (isInsideRoot(folder, home.root) || isInsideRoot(home.root, folder)) {
    throw failed({
      kind: 'invalid-argument',
      field: 'folder',
      message: `the mirror folder ${folder} and the Quire home ${home.root} must not contain each other`,
    });
  }
  const previous = await readQuireConfig(home);
  if (previous && (previous.server !== server.origin || previous.folder !== folder)) {
    throw failed({
      kind: 'other-connection',
      server: previous.server,
      folder: previous.folder,
      message:
        `${home.root} is set up for ${previous.server} and ${previous.folder}; ` +
        'log in with the same server and folder, or use another --home',
    });
  }
  const remote = deps.connect(server.origin, request.token);
  const otherMirror = await otherMirrorWarning({
    folder,
    homeRoot: home.root,
    newHome: previous === undefined,
    env: deps.env,
  });
  let user;
  try {
    user = await remote.whoAmI();
  } catch (error) {
    throw loginFailure(error, server.origin);
  }
  await createFolder(folder);
  await ensureQuireHome(home);
  await secrets.set(serverTokenKey(server.origin), request.token);
  const config: QuireConfig = {
    // Settings chosen earlier (`quire subject`…) survive logging in again.
    ...previous,
    server: server.origin,
    folder,
    user: {
      id: user.id,
      displayName: user.displayName,
      ...(user.email ? { email: user.email } : {}),
    },
  };
  await writeQuireConfig(home, config);
  return {
    server: server.origin,
    folder,
    user: config.user,
    warnings: otherMirror === undefined ? [] : [{ kind: 'other-mirror', message: otherMirror }],
  };
}

/** The three failures a user can act on each get their own message. */
function loginFailure(error: unknown, server: string): unknown {
  if (error instanceof RemoteAuthError) {
    return failed({ kind: 'token-rejected', message: 'the server rejected the token' }, error);
  }
  if (error instanceof RemoteUnavailableError) {
    const message = `cannot reach server ${server}: ${error.message}`;
    return failed({ kind: 'offline', message }, error);
  }
  // It answered, but not as a Quire (or GitBook-compatible) API does: most likely the wrong URL.
  if (error instanceof RemoteError) {
    const message = `${server} does not answer like a Quire server: ${error.message}`;
    return failed({ kind: 'not-a-quire-server', message }, error);
  }
  return error;
}

async function createFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
    if (!(await stat(folder)).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw failed(
      {
        kind: 'folder-unusable',
        folder,
        message: `cannot use ${folder} as the mirror folder (${reason})`,
      },
      error,
    );
  }
}

function failed(error: CommandError, cause?: unknown): CommandFailedError {
  return new CommandFailedError(error, cause === undefined ? undefined : { cause });
}
