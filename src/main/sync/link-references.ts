import { posix } from 'node:path';
import type { FileIndexEntry } from '../cache/file-index';
import { rewriteLinkTargets } from '../mirror/rewrite-link-targets';

/**
 * The pull writes references to uploads and pages as relative paths (Git Sync's layout); the
 * server stores `/files/<id>` and `/pages/<id>`. Pushed Markdown gets the server's form back for
 * every relative target that names an indexed asset or page; anything else is sent as written.
 */
export function serverReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string) => string {
  const byPath = new Map(view.map((entry) => [entry.path, entry]));
  return (markdown, path) =>
    rewriteLinkTargets(markdown, (written) => {
      const target =
        written.startsWith('<') && written.endsWith('>') ? written.slice(1, -1) : written;
      if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) return undefined;
      const hash = target.indexOf('#');
      const file = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? '' : target.slice(hash);
      let decoded: string;
      try {
        decoded = decodeURIComponent(file);
      } catch {
        return undefined;
      }
      const resolved = posix.normalize(posix.join(posix.dirname(path), decoded));
      const entry = byPath.get(resolved);
      if (entry?.kind === 'asset' && entry.fileId !== null && anchor === '') {
        return `/files/${entry.fileId}`;
      }
      if (entry?.kind === 'page' && entry.pageId !== null) return `/pages/${entry.pageId}${anchor}`;
      return undefined;
    });
}

/**
 * The reverse of serverReferences, as the pull renders page files: `/files/<id>` and
 * `/pages/<id>[#anchor]` naming an indexed file become paths relative to the page's file.
 */
export function localReferences(
  view: readonly FileIndexEntry[],
): (markdown: string, path: string) => string {
  const assets = new Map<string, string>();
  const pages = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'asset' && entry.fileId !== null) assets.set(entry.fileId, entry.path);
    if (entry.kind === 'page' && entry.pageId !== null) pages.set(entry.pageId, entry.path);
  }
  return (markdown, path) => {
    const relative = (target: string) =>
      posix
        .relative(posix.dirname(path), target)
        .replace(/[%#?]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    return rewriteLinkTargets(markdown, (target) => {
      const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(target)?.[1];
      if (file !== undefined) {
        const asset = assets.get(file);
        return asset === undefined ? undefined : relative(asset);
      }
      const page = /^\/pages\/([A-Za-z0-9_-]+)(#[^\s]*)?$/.exec(target);
      const pagePath = page?.[1] === undefined ? undefined : pages.get(page[1]);
      return pagePath === undefined ? undefined : `${relative(pagePath)}${page?.[2] ?? ''}`;
    });
  };
}
