import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppServices } from '../app/app-services';
import { openEngineSession } from '../app/open-engine-session';
import { ensureQuireHome, writeFileAtomic, type QuireHome } from '../config/quire-home';
import { WorkspaceClient } from '../remote/workspace-client';
import { FileSecretStore, SECRET_FILE_MODE } from '../secrets/file-secret-store';
import {
  SafeStorageSecretStore,
  type EncryptedBlobFile,
  type PlainTextConsent,
} from './safe-storage-secret-store';
import { SharedHomeSecretStore } from './shared-home-secret-store';

/** Login fails fast on an unreachable server: one retry, a shorter timeout (as in the CLI). */
const LOGIN_HTTP = { maxAttempts: 2, timeoutMs: 15_000 } as const;

/** `<home>/secrets.safe`: the secrets map encrypted by safeStorage, base64, 0600. */
export function secretsBlobFile(home: QuireHome): EncryptedBlobFile {
  const file = path.join(home.root, 'secrets.safe');
  return {
    read: async () => {
      try {
        return Buffer.from(await readFile(file, 'utf8'), 'base64');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write: async (data) => {
      await ensureQuireHome(home);
      await writeFileAtomic(file, data.toString('base64'), SECRET_FILE_MODE);
    },
  };
}

/**
 * The desktop app's services: the CLI's (same home, same engine and HTTP client) but the token
 * encrypted by the OS through safeStorage (a token `quire login` saved is still read), and whether
 * the OS offers only a plaintext backend (shown in the window's connection info).
 */
export function createDesktopServices(
  home: QuireHome,
  version: string,
  confirmPlainText: PlainTextConsent,
): AppServices & { plainTextSecrets(): boolean } {
  const encrypted = new SafeStorageSecretStore(
    secretsBlobFile(home),
    undefined,
    process.platform,
    confirmPlainText,
  );
  return {
    home,
    secrets: new SharedHomeSecretStore(encrypted, new FileSecretStore(home.secretsFile)),
    connect: (server, token, options = {}) =>
      new WorkspaceClient({
        endpoint: server,
        token,
        userAgent: `quire-desktop/${version}`,
        ...(options.quick ? { http: LOGIN_HTTP } : {}),
      }),
    openEngine: (options) => openEngineSession(home, options),
    plainTextSecrets: () => encrypted.plainTextOnly(),
  };
}
