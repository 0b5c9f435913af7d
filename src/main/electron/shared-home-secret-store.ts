import type { SecretStore } from '../sync-ports';

/**
 * The desktop app's secrets in a home the CLI shares: new tokens go to the encrypted store only;
 * a token only the CLI saved (`quire login`, its 0600 file) is still read, so the app syncs what
 * the CLI set up; a logout forgets the token in both, as the user means "sign this home out".
 */
export class SharedHomeSecretStore implements SecretStore {
  constructor(
    private readonly encrypted: SecretStore,
    private readonly cli: SecretStore,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.encrypted.get(key)) ?? (await this.cli.get(key));
  }

  async set(key: string, value: string): Promise<void> {
    await this.encrypted.set(key, value);
  }

  async delete(key: string): Promise<void> {
    await Promise.all([this.encrypted.delete(key), this.cli.delete(key)]);
  }
}
