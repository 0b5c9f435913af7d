import { lstat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Containment checks for the Markdown mirror. `safeFileName` makes names harmless; these are the
 * backstop that holds even if a caller joins something it should not have.
 */

export type UnsafePathReason =
  'invalid-root' | 'invalid-segment' | 'outside-root' | 'is-root' | 'symlink' | 'not-a-directory';

export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';

  constructor(
    readonly reason: UnsafePathReason,
    readonly root: string,
    readonly target: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Joins `segments` onto `root` and returns the absolute result, or throws `UnsafePathError` if it
 * would leave `root`. A segment may hold several relative parts (`a/b.md`); absolute segments,
 * drive letters, UNC prefixes and NUL bytes are refused outright rather than resolved, because
 * `path.resolve` would silently discard `root` for them. `root` itself counts as inside.
 */
export function resolveInside(root: string, ...segments: string[]): string {
  const absoluteRoot = checkedRoot(root);
  for (const segment of segments) {
    if (
      typeof segment !== 'string' ||
      segment.includes('\0') ||
      path.posix.isAbsolute(segment) ||
      path.win32.isAbsolute(segment) ||
      /^[A-Za-z]:/.test(segment) // drive-relative (`C:x`) switches drives on Windows
    ) {
      throw new UnsafePathError(
        'invalid-segment',
        absoluteRoot,
        String(segment),
        `Refusing path segment ${JSON.stringify(segment)}: not a relative path`,
      );
    }
  }
  const resolved = path.resolve(absoluteRoot, ...segments);
  assertInside(absoluteRoot, resolved);
  return resolved;
}

/** True when `target` (absolute, or relative to `root`) is `root` or lies below it. */
export function isInsideRoot(root: string, target: string): boolean {
  const absoluteRoot = path.resolve(root);
  const relative = path.relative(absoluteRoot, path.resolve(absoluteRoot, target));
  // `..foo` is a legitimate name inside root, so only a whole `..` component means "outside".
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** Throws `UnsafePathError` unless `target` is `root` or lies below it. Returns the absolute path. */
export function assertInside(root: string, target: string): string {
  const absoluteRoot = checkedRoot(root);
  if (target.includes('\0')) {
    throw new UnsafePathError('invalid-segment', absoluteRoot, target, 'Path contains NUL');
  }
  const absoluteTarget = path.resolve(absoluteRoot, target);
  if (!isInsideRoot(absoluteRoot, absoluteTarget)) {
    throw new UnsafePathError(
      'outside-root',
      absoluteRoot,
      absoluteTarget,
      `Refusing ${absoluteTarget}: outside ${absoluteRoot}`,
    );
  }
  return absoluteTarget;
}

/**
 * Walks from `root` down to `target` with lstat and throws `UnsafePathError` on the first symlink
 * (Windows junctions report as symlinks too), so no write can be redirected outside the space
 * folder. `root` itself may be a symlink: the user chose it. Components that do not exist yet end
 * the walk, since nothing below them can be a link. The check cannot close the race with a local
 * process swapping a folder for a link afterwards; Node has no openat(), so callers re-check just
 * before the operation that matters.
 */
export async function assertNoSymlinkOnPath(root: string, target: string): Promise<void> {
  const absoluteRoot = checkedRoot(root);
  const absoluteTarget = assertInside(absoluteRoot, target);
  const relative = path.relative(absoluteRoot, absoluteTarget);
  if (relative === '') return;
  let current = absoluteRoot;
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part);
    let stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    if (stats.isSymbolicLink()) {
      throw new UnsafePathError(
        'symlink',
        absoluteRoot,
        absoluteTarget,
        `Refusing ${absoluteTarget}: ${current} is a symbolic link`,
      );
    }
  }
}

function checkedRoot(root: string): string {
  if (typeof root !== 'string' || root.includes('\0') || !path.isAbsolute(root)) {
    // A relative root would depend on the process's working directory.
    throw new UnsafePathError(
      'invalid-root',
      String(root),
      String(root),
      `Mirror root must be an absolute path, got ${JSON.stringify(root)}`,
    );
  }
  return path.resolve(root);
}
