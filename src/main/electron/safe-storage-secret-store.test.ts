import { describe, expect, it, vi } from 'vitest';

// Electron's API is the one thing mocked: the store's logic runs for real.
vi.mock('electron', () => ({ safeStorage: {} }));

const { SafeStorageSecretStore, SafeStorageUnavailableError } =
  await import('./safe-storage-secret-store');

function fakeStorage(available = true, backend = 'gnome_libsecret') {
  // A reversible stand-in for OS encryption that never leaves the plaintext in the blob.
  const encode = (text: string) => Buffer.from([...Buffer.from(text)].map((byte) => byte ^ 0x5a));
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend as 'gnome_libsecret',
    encryptString: (text: string) => encode(text),
    decryptString: (blob: Buffer) => Buffer.from([...blob].map((byte) => byte ^ 0x5a)).toString(),
  };
}

function memoryFile() {
  let data: Buffer | undefined;
  return {
    read: async () => data,
    write: async (next: Buffer) => {
      data = next;
    },
    get raw() {
      return data;
    },
  };
}

describe('SafeStorageSecretStore', () => {
  it('keeps secrets encrypted at rest and reads them back', async () => {
    const file = memoryFile();
    const store = new SafeStorageSecretStore(file, fakeStorage(), 'linux');
    await store.set('token:http://127.0.0.1:8787', 'tok-secret-value');
    await store.set('other', 'two');
    expect(await store.get('token:http://127.0.0.1:8787')).toBe('tok-secret-value');
    expect(file.raw?.toString('latin1')).not.toContain('tok-secret-value');
    await store.delete('other');
    expect(await store.get('other')).toBeUndefined();
  });

  it('refuses to store when the OS offers no encryption or only plain text', async () => {
    await expect(
      new SafeStorageSecretStore(memoryFile(), fakeStorage(false), 'darwin').set('k', 'v'),
    ).rejects.toThrow(SafeStorageUnavailableError);
    await expect(
      new SafeStorageSecretStore(memoryFile(), fakeStorage(true, 'basic_text'), 'linux').set(
        'k',
        'v',
      ),
    ).rejects.toThrow(/plain text/);
  });

  it('saves without a keyring only once the user agreed, asking once', async () => {
    const refuse = vi.fn(async () => false);
    const refused = new SafeStorageSecretStore(
      memoryFile(),
      fakeStorage(true, 'basic_text'),
      'linux',
      refuse,
    );
    expect(refused.plainTextOnly()).toBe(true);
    await expect(refused.set('k', 'v')).rejects.toThrow(/plain text/);
    expect(refuse).toHaveBeenCalledTimes(1);
    const accept = vi.fn(async () => true);
    const file = memoryFile();
    const store = new SafeStorageSecretStore(
      file,
      fakeStorage(true, 'basic_text'),
      'linux',
      accept,
    );
    await store.set('k', 'v');
    await store.set('k2', 'v2');
    expect(accept).toHaveBeenCalledTimes(1);
    expect(await store.get('k')).toBe('v');
    // A keyring never asks.
    const keyring = vi.fn(async () => true);
    await new SafeStorageSecretStore(memoryFile(), fakeStorage(), 'linux', keyring).set('k', 'v');
    expect(keyring).not.toHaveBeenCalled();
  });

  it('reports secrets it cannot decrypt without quoting them', async () => {
    const file = memoryFile();
    await file.write(Buffer.from('not encrypted by us'));
    const error = await new SafeStorageSecretStore(file, fakeStorage(), 'linux')
      .get('k')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeStorageUnavailableError);
    expect(String(error)).not.toContain('not encrypted by us');
  });
});
