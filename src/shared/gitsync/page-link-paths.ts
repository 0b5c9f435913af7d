/**
 * Links between files of a space folder, the way Git Sync writes them in page bodies: a page with
 * children (its file is `dir/README.md`) is linked by its folder (`dir/`, `./`, `../section/`),
 * any other page by its file (`setup.md`, `../guide/setup.md`). `…/README.md` appears only in
 * SUMMARY.md. Reading goes the other way and takes every form a user may write.
 */
import { posix } from './posix-path';

const README = 'README.md';

/**
 * A file path as a link target: `%`, `#` and `?` would be read as an escape, a fragment or a
 * query, so they are percent-encoded; spaces stay (the destination goes in angle brackets).
 */
export function encodePath(path: string): string {
  return path.replace(/[%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The link Git Sync writes in the page file `fromFile` to the page file `toFile` (no anchor). */
export function gitSyncPageHref(fromFile: string, toFile: string): string {
  const folder = posix.dirname(fromFile);
  if (posix.basename(toFile) !== README) return encodePath(posix.relative(folder, toFile));
  const relative = posix.relative(folder, posix.dirname(toFile));
  return relative === '' ? './' : `${encodePath(relative)}/`;
}

/** A relative link target split into the files it may name, in order of preference. */
export interface RelativeTarget {
  /** Space-relative paths; a folder link names only its `README.md`. */
  candidates: string[];
  /** The fragment with its `#`, or ''. */
  anchor: string;
  /** Written as a folder (`dir/`, `./`, `../`, `dir` without an extension): a page, never a file. */
  folder: boolean;
}

/**
 * The files a link written in `fromFile` may name, or undefined for what is not a relative path
 * inside the space (URLs, `/absolute`, `#anchor` alone, paths above the space, bad escapes).
 * `dir/`, `./`, `../` name `README.md` in that folder. With `bare` (a Markdown destination, not an
 * attribute such as `data-view="cards"`), `dir` names `dir` (an asset without an extension),
 * then `dir/README.md`, then `dir.md`; otherwise only `dir`.
 */
export function relativeTarget(
  fromFile: string,
  written: string,
  { bare = false }: { bare?: boolean } = {},
): RelativeTarget | undefined {
  const target = written.startsWith('<') && written.endsWith('>') ? written.slice(1, -1) : written;
  if (target === '' || /^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) return undefined;
  const hash = target.indexOf('#');
  const file = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? '' : target.slice(hash);
  if (file === '') return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(file);
  } catch {
    return undefined;
  }
  const joined = posix.normalize(posix.join(posix.dirname(fromFile), decoded));
  const path = joined.replace(/\/+$/, '');
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return undefined;
  const last = decoded.split('/').pop() ?? '';
  const inFolder = (dir: string) => (dir === '.' || dir === '' ? README : `${dir}/${README}`);
  if (decoded.endsWith('/') || last === '.' || last === '..') {
    return { candidates: [inFolder(path)], anchor, folder: true };
  }
  if (!bare || /\.md$/i.test(last) || path.split('/').includes('.gitbook')) {
    return { candidates: [path], anchor, folder: false };
  }
  const folder = !/\.[A-Za-z0-9]{1,8}$/.test(last);
  return { candidates: [path, inFolder(path), `${path}.md`], anchor, folder };
}
