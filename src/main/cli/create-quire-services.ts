import type { QuireHome } from '../config/quire-home';
import type { AppServices } from '../app/app-services';
import { openEngineSession } from '../app/open-engine-session';
import { WorkspaceClient } from '../remote/workspace-client';
import { FileSecretStore } from '../secrets/file-secret-store';

/** Login fails fast on an unreachable server: one retry, a shorter timeout. */
const LOGIN_HTTP = { maxAttempts: 2, timeoutMs: 15_000 } as const;

/**
 * The headless `quire`'s services: the file secret store in the home, the HTTP client, and the
 * sync engine over `<home>/cache.db`.
 */
export function createQuireServices(home: QuireHome): AppServices {
  return {
    home,
    secrets: new FileSecretStore(home.secretsFile),
    connect: (server, token, options = {}) =>
      new WorkspaceClient({
        endpoint: server,
        token,
        userAgent: 'quire-cli',
        ...(options.quick ? { http: LOGIN_HTTP } : {}),
      }),
    openEngine: (options) => openEngineSession(home, options),
  };
}
