import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import PQueue from 'p-queue';
import { writeFileAtomic } from '../config/quire-home';
import type { SecretStore } from '../sync-ports';

/**
 * The headless secret store: one JSON file, mode 0600, in the Quire home. It is no better than the
 * file system's permissions, which is the same bar as `~/.ssh` or `~/.npmrc`; the desktop app uses
 * Electron's safeStorage instead. Values never appear in an error message: a JSON parse error can
 * quote the input, so parse failures are reported without their cause.
 */
export class FileSecretStore implements SecretStore {
  /** Serialises this process's read-modify-write cycles so two `set`s cannot lose each other. */
  private readonly queue = new PQueue({ concurrency: 1 });

  constructor(private readonly file: string) {}

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    return this.serial(async () => (await this.read())[key]);
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    if (typeof value !== 'string' || value === '') {
      throw new SecretStoreError('A secret must be a non-empty string');
    }
    return this.serial(async () => {
      const secrets = await this.read();
      secrets[key] = value;
      await this.write(secrets);
    });
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    return this.serial(async () => {
      const secrets = await this.read();
      if (!Object.hasOwn(secrets, key)) return;
      delete secrets[key];
      await this.write(secrets);
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    // throwOnTimeout types the result as T (no timeout is set, so none can occur).
    return this.queue.add(task, { throwOnTimeout: true });
  }

  private async read(): Promise<Record<string, string>> {
    let handle;
    try {
      // O_NOFOLLOW: a link planted at this path must not make us read (and later trust) another file.
      handle = await open(this.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return Object.create(null) as Record<string, string>;
      if (code === 'ELOOP') throw new SecretStoreError(`${this.file} is a symbolic link`);
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new SecretStoreError(`${this.file} is not a regular file`);
      checkPrivate(this.file, stats.mode, stats.uid);
      return parseSecrets(await handle.readFile('utf8'), this.file);
    } finally {
      await handle.close();
    }
  }

  private write(secrets: Record<string, string>): Promise<void> {
    const body = { version: 1, secrets };
    return writeFileAtomic(this.file, `${JSON.stringify(body, null, 2)}\n`, SECRET_FILE_MODE);
  }
}

export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

export const SECRET_FILE_MODE = 0o600;

/** Secrets are keyed per server so a token is never offered to a server it was not issued by. */
export function serverTokenKey(serverOrigin: string): string {
  return `token:${serverOrigin}`;
}

/**
 * Refuses, rather than silently repairs, a file others can read or one another user owns: if the
 * mode was loosened, the token may already have leaked and the user should know and rotate it.
 * Windows has no POSIX modes (Node reports 0o666), so the check is skipped there.
 */
function checkPrivate(file: string, mode: number, uid: number): void {
  if (process.platform === 'win32') return;
  if ((mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(3, '0');
    throw new SecretStoreError(
      `${file} is accessible by other users (mode ${octal}); check who could read it, then chmod 600 it`,
    );
  }
  const owner = process.getuid?.();
  if (owner !== undefined && uid !== owner) {
    throw new SecretStoreError(`${file} belongs to another user`);
  }
}

function parseSecrets(text: string, file: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SecretStoreError(`${file} is not valid JSON`);
  }
  const secrets = (value as { version?: unknown; secrets?: unknown } | null)?.secrets;
  if (
    (value as { version?: unknown } | null)?.version !== 1 ||
    typeof secrets !== 'object' ||
    secrets === null ||
    Array.isArray(secrets)
  ) {
    throw new SecretStoreError(`${file} is not a Quire secrets file`);
  }
  // A null-prototype copy: a key such as `__proto__` stays an ordinary entry.
  const result = Object.create(null) as Record<string, string>;
  for (const [key, secret] of Object.entries(secrets)) {
    if (typeof secret !== 'string') {
      throw new SecretStoreError(`${file} holds a non-string secret under ${JSON.stringify(key)}`);
    }
    result[key] = secret;
  }
  return result;
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key === '') {
    throw new SecretStoreError('A secret key must be a non-empty string');
  }
}
