/** Git Sync page paths ↔ file paths, and relative links between pages resolved against them. */
import { classifyHref } from './markdown-links';

/**
 * Git Sync file of a page (§1.3 of the Git Sync notes): `<path>.md`, or `<path>/README.md` for a
 * page with children; the space's first page is the root `README.md` (path '').
 */
export function pageFilePath(pagePath: string, hasChildren: boolean): string {
  if (pagePath === '') return 'README.md';
  return hasChildren ? `${pagePath}/README.md` : `${pagePath}.md`;
}

/**
 * The page path a Git Sync file or folder link designates: `a/b.md` → `a/b`, `a/b/README.md`,
 * `a/b/` and `a/b` → `a/b`, `README.md` → ''. Null for paths that are not pages (`.gitbook/…`, `..`).
 */
export function filePathToPagePath(filePath: string): string | null {
  const segments = filePath.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..' || segment === '.gitbook')) return null;
  const last = segments[segments.length - 1];
  if (last !== undefined && /^readme\.md$/i.test(last)) segments.pop();
  else if (last !== undefined && /\.md$/i.test(last))
    segments[segments.length - 1] = last.slice(0, -3);
  return segments.join('/');
}

export interface ResolveOptions {
  /**
   * True when the linking page is stored as `<path>/README.md` (it has child pages, or it is the
   * root README): its links are then relative to its own folder instead of its parent's.
   */
  fromIsReadme?: boolean;
}

/**
 * Resolves a relative Markdown link written in the page at `fromPagePath` to the Git Sync page
 * path it designates (`guides/setup` + `../reference/api.md` → `reference/api`). Returns null
 * when the link is not a relative page link or climbs above the space root.
 *
 * Paths are Git Sync paths: the file path without `.md` / `/README.md`. Pages inside a group live
 * under the group's folder there, which walkPages paths omit — map through the page tree (e.g.
 * gitSyncPagePaths) rather than comparing with walkPages paths directly.
 */
export function resolveRelativePagePath(
  fromPagePath: string,
  href: string,
  options: ResolveOptions = {},
): string | null {
  const target = classifyHref(href);
  if (target.kind !== 'page' || target.path === undefined || target.path.startsWith('/'))
    return null;
  const fromFile = pageFilePath(fromPagePath, options.fromIsReadme ?? fromPagePath === '');
  const folder = fromFile.split('/').slice(0, -1);
  for (const segment of target.path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (folder.length === 0) return null;
      folder.pop();
    } else {
      folder.push(segment);
    }
  }
  return filePathToPagePath(folder.join('/'));
}

/** The minimal page shape gitSyncPagePaths needs (StoredPage satisfies it). */
export interface TreePage {
  id: string;
  type: string;
  slug: string;
  pages: readonly TreePage[];
}

/**
 * Git Sync path of every document page, keyed by path: groups contribute a folder (their slug),
 * a page with children is `<path>/README.md`, and the very first page is the root README ('').
 */
export function gitSyncPagePaths(
  pages: readonly TreePage[],
): Map<string, { id: string; file: string }> {
  const paths = new Map<string, { id: string; file: string }>();
  let first = true;
  const visit = (siblings: readonly TreePage[], folder: string) => {
    for (const page of siblings) {
      const path = folder ? `${folder}/${page.slug}` : page.slug;
      if (page.type === 'group') {
        visit(page.pages, path);
        continue;
      }
      if (page.type === 'document') {
        const gitPath = first && folder === '' ? '' : path;
        first = false;
        if (!paths.has(gitPath))
          paths.set(gitPath, { id: page.id, file: pageFilePath(gitPath, page.pages.length > 0) });
      }
      visit(page.pages, path);
    }
  };
  visit(pages, '');
  return paths;
}
