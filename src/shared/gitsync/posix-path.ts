/**
 * The few `node:path` posix functions the Git Sync layout needs, without Node (src/shared is
 * pure): same results as `posix.*` for the layout's paths (relative paths resolve against a
 * virtual root, so `relative` never depends on a working directory). Property-tested against
 * node:path in posix-path.test.ts.
 */

function segments(path: string, absolute: boolean): string[] {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') parts.push(segment);
    else if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (!absolute) parts.push('..');
  }
  return parts;
}

export function normalize(path: string): string {
  if (path === '') return '.';
  const absolute = path.startsWith('/');
  let result = segments(path, absolute).join('/');
  if (result === '' && !absolute) result = '.';
  if (result !== '' && path.endsWith('/')) result += '/';
  return absolute ? `/${result}` : result;
}

export function join(...paths: string[]): string {
  const joined = paths.filter((path) => path !== '').join('/');
  return joined === '' ? '.' : normalize(joined);
}

export function dirname(path: string): string {
  if (path === '') return '.';
  const rooted = path.startsWith('/');
  let end = -1;
  let trailing = true;
  for (let i = path.length - 1; i >= 1; i -= 1) {
    if (path[i] === '/') {
      if (!trailing) {
        end = i;
        break;
      }
    } else trailing = false;
  }
  if (end === -1) return rooted ? '/' : '.';
  if (rooted && end === 1) return '//';
  return path.slice(0, end);
}

export function basename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end -= 1;
  if (end === 0) return '';
  return path.slice(path.lastIndexOf('/', end - 1) + 1, end);
}

/** The path from folder `from` to `to`, both taken from the same (virtual) root. */
export function relative(from: string, to: string): string {
  const source = segments(from, true);
  const target = segments(to, true);
  let common = 0;
  while (common < source.length && common < target.length && source[common] === target[common]) {
    common += 1;
  }
  return [...Array<string>(source.length - common).fill('..'), ...target.slice(common)].join('/');
}

/** `posix`-shaped, so code written against `node:path`'s posix reads the same. */
export const posix = { normalize, join, dirname, basename, relative };
