import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ safeStorage: {} }));

const { secretsBlobFile } = await import('./create-desktop-services');
const { quireHome } = await import('../config/quire-home');

describe('secretsBlobFile', () => {
  it('keeps the encrypted blob in <home>/secrets.safe, owner-only', async () => {
    const home = quireHome(path.join(await mkdtemp(path.join(tmpdir(), 'quire-home-')), 'home'));
    const file = secretsBlobFile(home);
    expect(await file.read()).toBeUndefined();
    const blob = Buffer.from([0, 1, 2, 250, 255]);
    await file.write(blob);
    expect(await file.read()).toEqual(blob);
    const saved = path.join(home.root, 'secrets.safe');
    expect(await readFile(saved, 'utf8')).toBe(blob.toString('base64'));
    if (process.platform !== 'win32') expect((await stat(saved)).mode & 0o777).toBe(0o600);
  });
});
