import { CommandFailedError } from '../../shared/contract/command-error';
import type { QuireEvents } from '../../shared/contract/quire-events';
import { readQuireConfig, type QuireConfig, type QuireHome } from '../config/quire-home';
import { serverTokenKey } from '../secrets/file-secret-store';
import type { RemoteWorkspace } from '../sync-ports';
import type { AppServices, EngineSession } from './app-services';

/** The engine for the saved connection, and how it was opened. */
export interface Session {
  readonly engine: EngineSession;
  readonly config: QuireConfig;
  readonly loggedIn: boolean;
  readonly watching: boolean;
}

export interface EngineSessionsOptions {
  readonly services: AppServices;
  /** Every token read from the secret store. */
  readonly onSecret?: (secret: string) => void;
  readonly onProgress: (progress: QuireEvents['progress']) => void;
  readonly onActivity: (entry: QuireEvents['activity']) => void;
  readonly onNotification?: (notification: QuireEvents['notification']) => void;
  readonly onReviewChanged?: (change: QuireEvents['reviewChanged']) => void;
}

/**
 * Opens the engine on the first command that needs it and keeps it for the next ones (one engine
 * and one cache connection per application), reopening it when a command needs what it lacks
 * (a token, a watcher's push settings).
 */
export class EngineSessions {
  private session: Session | undefined;
  /** The login's client, reused by the session that follows it (one token check, one client). */
  private loginRemote: { server: string; token: string; remote: RemoteWorkspace } | undefined;

  constructor(private readonly options: EngineSessionsOptions) {}

  get current(): Session | undefined {
    return this.session;
  }

  rememberLoginRemote(server: string, token: string, remote: RemoteWorkspace): void {
    this.loginRemote = { server, token, remote };
  }

  forgetLoginRemote(): void {
    this.loginRemote = undefined;
  }

  /**
   * The session, opened for the saved connection when none fits. Commands that work from the
   * cache alone (status, enabling a space…) run logged out too, with a remote that refuses.
   */
  async open(needsToken: boolean, watching: boolean): Promise<Session> {
    const current = this.session;
    const fits =
      current !== undefined && (current.loggedIn || !needsToken) && (current.watching || !watching);
    if (fits) return current;
    await this.close();
    const { services } = this.options;
    const config = await requireConfig(services.home);
    const token = await services.secrets.get(serverTokenKey(config.server));
    if (token !== undefined) this.options.onSecret?.(token);
    if (token === undefined && needsToken) {
      throw new CommandFailedError({
        kind: 'logged-out',
        server: config.server,
        message: `not logged in to ${config.server}`,
      });
    }
    const remote =
      token === undefined ? loggedOutRemote(config.server) : this.remote(config, token);
    const engine = await services.openEngine({
      config,
      remote,
      onProgress: this.options.onProgress,
      onActivity: this.options.onActivity,
      ...(this.options.onNotification ? { onNotification: this.options.onNotification } : {}),
      ...(this.options.onReviewChanged ? { onReviewChanged: this.options.onReviewChanged } : {}),
      ...(watching ? { watching: true } : {}),
    });
    this.session = { engine, config, loggedIn: token !== undefined, watching };
    return this.session;
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await session?.engine.close();
  }

  private remote(config: QuireConfig, token: string): RemoteWorkspace {
    const fromLogin = this.loginRemote;
    this.loginRemote = undefined;
    if (fromLogin?.server === config.server && fromLogin.token === token) return fromLogin.remote;
    return this.options.services.connect(config.server, token);
  }
}

/** The saved connection, or `not-logged-in`. */
export async function requireConfig(home: QuireHome): Promise<QuireConfig> {
  const config = await readQuireConfig(home);
  if (config !== undefined) return config;
  throw new CommandFailedError({
    kind: 'not-logged-in',
    message: `not logged in (no ${home.configFile})`,
  });
}

/** The remote of a logged-out session: anything that would reach the server refuses. */
function loggedOutRemote(server: string): RemoteWorkspace {
  const refuse = () =>
    Promise.reject(
      new CommandFailedError({ kind: 'logged-out', server, message: `not logged in to ${server}` }),
    );
  return {
    whoAmI: refuse,
    listOrganizations: refuse,
    listSpaces: refuse,
    getRevision: refuse,
    downloadFile: refuse,
  };
}
