import { safeStorage } from 'electron';
import PQueue from 'p-queue';
import type { SecretStore } from '../sync-ports';

/** Where the encrypted secrets live; the same read/write/remove contract as the file store. */
export interface EncryptedBlobFile {
  read(): Promise<Buffer | undefined>;
  write(data: Buffer): Promise<void>;
}

export class SafeStorageUnavailableError extends Error {
  override name = 'SafeStorageUnavailableError';
}

/**
 * Asked before a secret is saved where Linux offers no keyring (safeStorage's "basic_text"
 * backend, a fixed key: as good as plain text). True: save anyway; asked once per store.
 */
export type PlainTextConsent = () => Promise<boolean>;

/**
 * The desktop app's secret store: the secrets map is encrypted with Electron's safeStorage (the
 * OS keychain, DPAPI or libsecret) before it touches the disk. When the OS offers no encryption it
 * refuses to store; where Linux has only the plaintext "basic_text" backend it saves only once the
 * user agreed (`confirmPlainText`), never silently.
 */
export class SafeStorageSecretStore implements SecretStore {
  private readonly queue = new PQueue({ concurrency: 1 });

  constructor(
    private readonly file: EncryptedBlobFile,
    private readonly storage: Pick<
      typeof safeStorage,
      'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
    > = safeStorage,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly confirmPlainText?: PlainTextConsent,
  ) {}

  private plainTextAccepted = false;

  /** Whether secrets would be stored without a keyring (Linux's basic_text backend). */
  plainTextOnly(): boolean {
    return this.platform === 'linux' && this.storage.getSelectedStorageBackend() === 'basic_text';
  }

  async get(key: string): Promise<string | undefined> {
    return this.serial(async () => (await this.read())[key]);
  }

  async set(key: string, value: string): Promise<void> {
    return this.serial(async () => {
      const secrets = await this.read();
      secrets[key] = value;
      await this.write(secrets);
    });
  }

  async delete(key: string): Promise<void> {
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

  private assertEncryption(): void {
    if (!this.storage.isEncryptionAvailable()) {
      throw new SafeStorageUnavailableError(
        'The operating system offers no encrypted storage for secrets',
      );
    }
  }

  /** Before a write: a real keyring, or the user's consent to store without one. */
  private async assertWritable(): Promise<void> {
    this.assertEncryption();
    if (!this.plainTextOnly() || this.plainTextAccepted) return;
    this.plainTextAccepted = (await this.confirmPlainText?.()) === true;
    if (!this.plainTextAccepted) {
      throw new SafeStorageUnavailableError(
        'No keyring is available (safeStorage would store secrets in plain text); install a secret service',
      );
    }
  }

  private async read(): Promise<Record<string, string>> {
    const blob = await this.file.read();
    if (!blob) return Object.create(null) as Record<string, string>;
    // A blob saved under basic_text was saved with the user's consent: it reads back as it is.
    this.assertEncryption();
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.storage.decryptString(blob));
    } catch {
      // Never quote the decrypted text: it is the secrets themselves.
      throw new SafeStorageUnavailableError(
        'The stored secrets cannot be decrypted on this machine',
      );
    }
    const secrets = Object.create(null) as Record<string, string>;
    if (parsed && typeof parsed === 'object') {
      for (const [key, value] of Object.entries(parsed))
        if (typeof value === 'string') secrets[key] = value;
    }
    return secrets;
  }

  private async write(secrets: Record<string, string>): Promise<void> {
    await this.assertWritable();
    await this.file.write(this.storage.encryptString(JSON.stringify(secrets)));
  }
}
