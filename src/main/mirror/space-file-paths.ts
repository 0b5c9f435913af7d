/** Paths of a space folder as the layout parser reads them: page files, link targets, assets. */
import { posix } from 'node:path';
import { ASSETS_FOLDER, SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { safeDecode } from '../../shared/safe-decode';

/** A Markdown file that can be a page: not SUMMARY.md, nothing under `.gitbook/`. */
export function isPagePath(path: string): boolean {
  return /\.md$/i.test(path) && path !== SUMMARY_PATH && !path.startsWith('.gitbook/');
}

/**
 * A SUMMARY.md destination relative to the space root: undefined when it is not a relative path
 * (a URL, `/pages/…`, `#anchor`), null when it climbs out of the folder.
 */
export function relativeTarget(
  destination: string,
): { path: string; anchor?: string } | null | undefined {
  if (destination === '' || /^[a-z][a-z0-9+.-]*:/i.test(destination) || /^[/#]/.test(destination)) {
    return undefined;
  }
  const hash = destination.indexOf('#');
  const anchor = hash === -1 ? undefined : safeDecode(destination.slice(hash + 1));
  const pathPart = (hash === -1 ? destination : destination.slice(0, hash)).split('?')[0] ?? '';
  const path = posix.normalize(safeDecode(pathPart));
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return null;
  const clean = path.replace(/^\.\//, '');
  return anchor === undefined ? { path: clean } : { path: clean, anchor };
}

/** The `.gitbook/assets/` file a reference written in the page at `pagePath` names, if any. */
export function assetNameOf(reference: string, pagePath: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || /^[/#]/.test(reference)) return undefined;
  const pathPart = reference.split('#')[0]?.split('?')[0] ?? '';
  return assetOfPath(posix.join(posix.dirname(pagePath), safeDecode(pathPart)));
}

/** The asset name of a path from the space root, when it is a file of `.gitbook/assets/`. */
export function assetOfPath(path: string): string | undefined {
  const resolved = posix.normalize(path);
  if (!resolved.startsWith(`${ASSETS_FOLDER}/`)) return undefined;
  const name = resolved.slice(ASSETS_FOLDER.length + 1);
  return name === '' || name.includes('/') ? undefined : name;
}
