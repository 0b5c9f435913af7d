/** The longest path (section or site space), from the spec's limits. */
export const MAX_PATH_LENGTH = 100;

/**
 * A path segment for a title: lower-case letters and digits joined by `-`, accents dropped
 * (matches the path schema's rule); `fallback` when nothing of the title is left.
 */
export function pathFromTitle(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_PATH_LENGTH - 4)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `path`, or `path-2`, `path-3`… : the first that `taken` does not hold. */
export function uniquePath(path: string, taken: ReadonlySet<string>): string {
  if (!taken.has(path)) return path;
  for (let n = 2; ; n += 1) {
    const candidate = `${path.slice(0, MAX_PATH_LENGTH - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
