import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lstatOrNull } from './lstat-or-null';

describe('lstatOrNull', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lstat-or-null-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('describes an entry without following a link', async () => {
    await writeFile(path.join(dir, 'file'), 'x');
    await symlink(path.join(dir, 'file'), path.join(dir, 'link'));
    expect((await lstatOrNull(path.join(dir, 'file')))?.isFile()).toBe(true);
    expect((await lstatOrNull(path.join(dir, 'link')))?.isSymbolicLink()).toBe(true);
  });

  it('gives null for a missing entry or a path through a file', async () => {
    await writeFile(path.join(dir, 'file'), 'x');
    expect(await lstatOrNull(path.join(dir, 'missing'))).toBeNull();
    expect(await lstatOrNull(path.join(dir, 'file', 'below'))).toBeNull();
  });

  it('throws other errors', async () => {
    await expect(lstatOrNull('bad\0path')).rejects.toThrow();
  });
});
