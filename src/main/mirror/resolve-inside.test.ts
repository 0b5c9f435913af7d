import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  UnsafePathError,
  assertInside,
  assertNoSymlinkOnPath,
  isInsideRoot,
  resolveInside,
} from './resolve-inside';

const root = path.resolve('/srv/quire-space');

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UnsafePathError) return error.reason;
    throw error;
  }
  return 'no error';
}

describe('resolveInside', () => {
  it('joins relative segments below the root', () => {
    expect(resolveInside(root, 'guides', 'intro.md')).toBe(path.join(root, 'guides', 'intro.md'));
    expect(resolveInside(root, 'guides/intro.md')).toBe(path.join(root, 'guides', 'intro.md'));
    expect(resolveInside(root)).toBe(root);
  });

  it('accepts names that merely start with two dots', () => {
    expect(resolveInside(root, '..foo')).toBe(path.join(root, '..foo'));
    expect(resolveInside(root, 'a', '..', 'b')).toBe(path.join(root, 'b'));
  });

  it.each([
    [['..'], 'outside-root'],
    [['../../etc/passwd'], 'outside-root'],
    [['guides', '..', '..', 'x'], 'outside-root'],
    [['/etc/passwd'], 'invalid-segment'],
    [['C:\\x'], 'invalid-segment'],
    [['C:x'], 'invalid-segment'],
    [['\\\\host\\share'], 'invalid-segment'],
    [['a\0b'], 'invalid-segment'],
  ])('refuses %j (%s)', (segments, reason) => {
    expect(reasonOf(() => resolveInside(root, ...segments))).toBe(reason);
  });

  it('refuses a relative root, which would depend on the working directory', () => {
    expect(reasonOf(() => resolveInside('space', 'x.md'))).toBe('invalid-root');
  });

  it('treats a sibling folder sharing the root as prefix as outside', () => {
    expect(isInsideRoot(root, `${root}-evil/x.md`)).toBe(false);
    expect(reasonOf(() => assertInside(root, `${root}-evil/x.md`))).toBe('outside-root');
    expect(isInsideRoot(root, path.join(root, 'x.md'))).toBe(true);
  });
});

describe('assertNoSymlinkOnPath', () => {
  let base: string;
  let space: string;
  let outside: string;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-resolve-'));
    space = path.join(base, 'space');
    outside = path.join(base, 'outside');
    fs.mkdirSync(path.join(space, 'guides'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  });

  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('passes for real folders and for paths that do not exist yet', async () => {
    await assertNoSymlinkOnPath(space, path.join(space, 'guides', 'intro.md'));
    await assertNoSymlinkOnPath(space, path.join(space, 'new', 'deeper', 'page.md'));
    await assertNoSymlinkOnPath(space, space);
  });

  it('refuses a symlinked folder on the way', async () => {
    fs.symlinkSync(outside, path.join(space, 'linked'));
    await expect(
      assertNoSymlinkOnPath(space, path.join(space, 'linked', 'secret.txt')),
    ).rejects.toMatchObject({ name: 'UnsafePathError', reason: 'symlink' });
  });

  it('refuses a symlinked target, even a dangling one', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(space, 'page.md'));
    fs.symlinkSync(path.join(outside, 'missing'), path.join(space, 'dangling.md'));
    await expect(assertNoSymlinkOnPath(space, path.join(space, 'page.md'))).rejects.toBeInstanceOf(
      UnsafePathError,
    );
    await expect(
      assertNoSymlinkOnPath(space, path.join(space, 'dangling.md')),
    ).rejects.toBeInstanceOf(UnsafePathError);
  });

  it('allows the root itself to be a symlink, since the user chose it', async () => {
    const linkedRoot = path.join(base, 'linked-space');
    fs.symlinkSync(space, linkedRoot);
    await assertNoSymlinkOnPath(linkedRoot, path.join(linkedRoot, 'guides', 'intro.md'));
  });

  it('refuses targets outside the root before touching the disk', async () => {
    await expect(
      assertNoSymlinkOnPath(space, path.join(outside, 'secret.txt')),
    ).rejects.toMatchObject({ reason: 'outside-root' });
  });
});
