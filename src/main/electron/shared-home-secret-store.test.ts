import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../sync-ports';
import { SharedHomeSecretStore } from './shared-home-secret-store';

function memoryStore(
  entries: Record<string, string> = {},
): SecretStore & { entries: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    entries: map,
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
  };
}

describe('SharedHomeSecretStore', () => {
  it('reads the CLI token, saves only encrypted, and forgets both on logout', async () => {
    const encrypted = memoryStore();
    const cli = memoryStore({ 'token:a': 'from-cli' });
    const store = new SharedHomeSecretStore(encrypted, cli);
    expect(await store.get('token:a')).toBe('from-cli');
    await store.set('token:a', 'from-app');
    expect(await store.get('token:a')).toBe('from-app');
    expect(cli.entries.get('token:a')).toBe('from-cli');
    await store.delete('token:a');
    expect(await store.get('token:a')).toBeUndefined();
    expect(cli.entries.size + encrypted.entries.size).toBe(0);
  });
});
