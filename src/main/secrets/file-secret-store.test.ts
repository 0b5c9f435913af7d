import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore, SecretStoreError, serverTokenKey } from './file-secret-store';

const posix = process.platform !== 'win32';
const SECRET = 'tok-super-secret-value';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-secrets-'));
  file = join(dir, 'secrets.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('FileSecretStore', () => {
  it('stores, reads back and deletes secrets', async () => {
    const store = new FileSecretStore(file);
    expect(await store.get('a')).toBeUndefined();
    await store.set('a', SECRET);
    await store.set('b', 'other');
    expect(await store.get('a')).toBe(SECRET);
    expect(await new FileSecretStore(file).get('b')).toBe('other');
    await store.delete('a');
    await store.delete('missing');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBe('other');
  });

  it('reading an absent file creates nothing', async () => {
    await new FileSecretStore(file).get('a');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(posix)('creates the file 0600 whatever the umask, and leaves no temp file', async () => {
    const previous = process.umask(0);
    try {
      await new FileSecretStore(file).set('a', SECRET);
    } finally {
      process.umask(previous);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it.runIf(posix)('refuses a file others can read, without quoting its content', async () => {
    await new FileSecretStore(file).set('a', SECRET);
    chmodSync(file, 0o644);
    const error = await rejection(new FileSecretStore(file).get('a'));
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error.message).toMatch(/mode 644.*chmod 600/);
    expect(error.message).not.toContain(SECRET);
    // Nor does it write over it: the user decides what to do about a possible leak.
    await expect(new FileSecretStore(file).set('b', 'x')).rejects.toThrow(SecretStoreError);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it.runIf(posix)('refuses to read through a symbolic link', async () => {
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ version: 1, secrets: { a: SECRET } }), {
      mode: 0o600,
    });
    symlinkSync(elsewhere, file);
    await expect(new FileSecretStore(file).get('a')).rejects.toThrow(/symbolic link/);
  });

  it('reports a corrupt file without echoing it', async () => {
    writeFileSync(file, `{"version":1,"secrets":{"a":"${SECRET}"`, { mode: 0o600 });
    const error = await rejection(new FileSecretStore(file).get('a'));
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).not.toContain(SECRET);
    writeFileSync(file, JSON.stringify({ secrets: { a: SECRET } }), { mode: 0o600 });
    await expect(new FileSecretStore(file).get('a')).rejects.toThrow(/not a Quire secrets file/);
    writeFileSync(file, JSON.stringify({ version: 1, secrets: { a: 5 } }), { mode: 0o600 });
    await expect(new FileSecretStore(file).get('a')).rejects.toThrow(/non-string/);
  });

  it('does not lose concurrent writes from one process', async () => {
    const store = new FileSecretStore(file);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { secrets: Record<string, string> };
    expect(Object.keys(saved.secrets)).toHaveLength(20);
  });

  it('treats keys such as __proto__ as plain keys and rejects empty keys and values', async () => {
    const store = new FileSecretStore(file);
    await store.set('__proto__', SECRET);
    expect(await new FileSecretStore(file).get('__proto__')).toBe(SECRET);
    expect(await store.get('constructor')).toBeUndefined();
    await expect(store.set('', 'x')).rejects.toThrow(SecretStoreError);
    await expect(store.set('k', '')).rejects.toThrow(SecretStoreError);
  });

  it('keys tokens by server origin', () => {
    expect(serverTokenKey('https://a.test')).not.toBe(serverTokenKey('https://b.test'));
  });
});
