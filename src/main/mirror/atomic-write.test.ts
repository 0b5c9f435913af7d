import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  atomicRemove,
  atomicWriteFile,
  ensureDir,
  fsyncDirectory,
  isAtomicWriteTempName,
  removeStaleTempFiles,
} from './atomic-write';
import { UnsafePathError } from './resolve-inside';

let base: string;
let root: string;
let outside: string;
const secret = () => fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8');

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-atomic-'));
  root = path.join(base, 'space');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe('atomicWriteFile', () => {
  it('creates a file, replaces its content and leaves no temp files', async () => {
    const target = path.join(root, 'page.md');
    await atomicWriteFile(target, '# One\n', { root });
    expect(fs.readFileSync(target, 'utf8')).toBe('# One\n');
    await atomicWriteFile(target, Buffer.from('# Two\n'), { root });
    expect(fs.readFileSync(target, 'utf8')).toBe('# Two\n');
    expect(fs.readdirSync(root)).toEqual(['page.md']);
  });

  it('resolves a relative path against the root, not the working directory', async () => {
    fs.mkdirSync(path.join(root, 'guides'));
    await atomicWriteFile('guides/intro.md', 'hi', { root });
    expect(fs.readFileSync(path.join(root, 'guides', 'intro.md'), 'utf8')).toBe('hi');
  });

  it('keeps the mode of an existing file and applies the requested mode to a new one', async () => {
    const existing = path.join(root, 'private.md');
    fs.writeFileSync(existing, 'old', { mode: 0o600 });
    fs.chmodSync(existing, 0o600);
    await atomicWriteFile(existing, 'new', { root });
    expect(fs.statSync(existing).mode & 0o777).toBe(0o600);

    const fresh = path.join(root, 'fresh.md');
    await atomicWriteFile(fresh, 'x', { root, mode: 0o640 });
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o640 & ~process.umask());
  });

  it('refuses to write through a symlinked parent and leaves the link target untouched', async () => {
    fs.symlinkSync(outside, path.join(root, 'linked'));
    await expect(
      atomicWriteFile(path.join(root, 'linked', 'secret.txt'), 'pwned', { root }),
    ).rejects.toMatchObject({ name: 'UnsafePathError', reason: 'symlink' });
    expect(secret()).toBe('secret');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses to replace a symlinked target and leaves both link and target untouched', async () => {
    const link = path.join(root, 'page.md');
    fs.symlinkSync(path.join(outside, 'secret.txt'), link);
    await expect(atomicWriteFile(link, 'pwned', { root })).rejects.toBeInstanceOf(UnsafePathError);
    expect(secret()).toBe('secret');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(root)).toEqual(['page.md']);
  });

  it('refuses paths outside the root and the root itself', async () => {
    await expect(
      atomicWriteFile(path.join(root, '..', 'outside', 'secret.txt'), 'pwned', { root }),
    ).rejects.toMatchObject({ reason: 'outside-root' });
    await expect(atomicWriteFile('../outside/new.txt', 'pwned', { root })).rejects.toMatchObject({
      reason: 'outside-root',
    });
    await expect(atomicWriteFile(root, 'pwned', { root })).rejects.toMatchObject({
      reason: 'is-root',
    });
    expect(secret()).toBe('secret');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('removes its temp file when the rename fails', async () => {
    const blocker = path.join(root, 'blocked.md');
    fs.mkdirSync(blocker);
    fs.writeFileSync(path.join(blocker, 'keep.txt'), 'keep');
    await expect(atomicWriteFile(blocker, 'data', { root })).rejects.toThrow();
    expect(fs.readdirSync(root)).toEqual(['blocked.md']);
    expect(fs.readFileSync(path.join(blocker, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('fails cleanly when the parent folder is missing', async () => {
    await expect(
      atomicWriteFile(path.join(root, 'missing', 'page.md'), 'x', { root }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('handles names near the 255-byte limit (temp name stays short enough)', async () => {
    const name = `${'é'.repeat(125)}.md`; // 253 bytes
    await atomicWriteFile(path.join(root, name), 'long', { root });
    expect(fs.readdirSync(root)).toEqual([name]);
  });
});

describe('ensureDir', () => {
  it('creates nested folders and is idempotent', async () => {
    const target = path.join(root, 'a', 'b', 'c');
    expect(await ensureDir(target, { root })).toBe(target);
    expect(await ensureDir('a/b/c', { root })).toBe(target);
    expect(fs.statSync(target).isDirectory()).toBe(true);
  });

  it('refuses a symlinked component and creates nothing behind it', async () => {
    fs.symlinkSync(outside, path.join(root, 'linked'));
    await expect(ensureDir(path.join(root, 'linked', 'new'), { root })).rejects.toMatchObject({
      reason: 'symlink',
    });
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses a file in the way and paths outside the root', async () => {
    fs.writeFileSync(path.join(root, 'file'), 'x');
    await expect(ensureDir(path.join(root, 'file', 'sub'), { root })).rejects.toMatchObject({
      reason: 'not-a-directory',
    });
    await expect(ensureDir(path.join(outside, 'new'), { root })).rejects.toMatchObject({
      reason: 'outside-root',
    });
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('atomicRemove', () => {
  it('removes a file and reports whether it existed', async () => {
    const target = path.join(root, 'gone.md');
    fs.writeFileSync(target, 'x');
    expect(await atomicRemove(target, { root })).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
    expect(await atomicRemove(target, { root })).toBe(false);
  });

  it('refuses symlinks (target or parent) and directories', async () => {
    const link = path.join(root, 'link.md');
    fs.symlinkSync(path.join(outside, 'secret.txt'), link);
    await expect(atomicRemove(link, { root })).rejects.toMatchObject({ reason: 'symlink' });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);

    fs.symlinkSync(outside, path.join(root, 'linked'));
    await expect(
      atomicRemove(path.join(root, 'linked', 'secret.txt'), { root }),
    ).rejects.toMatchObject({ reason: 'symlink' });
    expect(secret()).toBe('secret');

    fs.mkdirSync(path.join(root, 'folder'));
    await expect(atomicRemove(path.join(root, 'folder'), { root })).rejects.toBeInstanceOf(
      UnsafePathError,
    );
  });
});

describe('temp files', () => {
  it('recognises only its own temp names', () => {
    expect(isAtomicWriteTempName('.page.md.quire-tmp-0123456789abcdef')).toBe(true);
    expect(isAtomicWriteTempName('page.md.quire-tmp-0123456789abcdef')).toBe(false);
    expect(isAtomicWriteTempName('.page.md.quire-tmp-xyz')).toBe(false);
    expect(isAtomicWriteTempName('page.md')).toBe(false);
  });

  it('sweeps temp files a crash left behind, and nothing else', async () => {
    const stale = '.page.md.quire-tmp-0123456789abcdef';
    fs.writeFileSync(path.join(root, stale), 'half');
    fs.writeFileSync(path.join(root, 'page.md'), 'whole');
    fs.writeFileSync(path.join(root, '.page.md.quire-tmp-notours'), 'user');
    expect(await removeStaleTempFiles(root, { root })).toEqual([stale]);
    expect(fs.readdirSync(root).sort()).toEqual(['.page.md.quire-tmp-notours', 'page.md']);
  });

  it('fsyncs a real directory without error', async () => {
    await fsyncDirectory(root);
  });
});
