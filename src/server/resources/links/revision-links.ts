import { extractLinks, type ExtractedLink } from '../../content/markdown-links';
import {
  filePathToPagePath,
  gitSyncPagePaths,
  resolveRelativePagePath,
} from '../../content/page-paths';
import { walkPages, type RevisionTree, type StoredFile } from '../../content/revision-tree';

/**
 * - `ok`: the target exists in the revision (pages, files) or is an outside URL (never fetched).
 * - `broken`: a page or file of the space that the revision does not contain.
 * - `in-app`: an absolute URL on this server's own origin (its app, published or API addresses,
 *   e.g. a page of another space copied from the browser): it points into the workspace rather
 *   than at content of this revision, so it is neither checked nor counted as broken.
 */
export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** What a link points at, relative to the revision's space. */
export interface LinkTarget {
  kind: 'page' | 'file' | 'url';
  page?: string;
  file?: string;
  url?: string;
  /** A page link that names no existing page id: the page path it designates (or its href). */
  path?: string;
  /** A file link by path that matches no file: the file name it designates. */
  name?: string;
}

/** One distinct target of a revision and every page linking to it. */
export interface RevisionLink {
  /** Stable sort and pagination key, unique per target. */
  key: string;
  status: LinkStatus;
  target: LinkTarget;
  /** Ids of the document pages that link to the target, in tree order, each once. */
  pages: string[];
}

type Resolved = Omit<RevisionLink, 'pages'>;

export interface ResolveLinksOptions {
  /** The server's public origin (`https://docs.example.com`); URLs on it are `in-app`. */
  serverOrigin: string;
  /** Markdown of a body hash (document pages); undefined reads as an empty page. */
  body(hash: string): string | undefined;
  /** Link extraction of one body, so callers can cache it by body hash. */
  linksOf?(hash: string, markdown: string): readonly ExtractedLink[];
}

/**
 * Every link written in the document pages of a revision, grouped by target and sorted by key.
 * Page links resolve by id (`/pages/<id>`), by Git Sync path (relative `.md`/folder links and
 * `/pages/<path>.md`) or by API path (`/pages/<slug>/<slug>`); file links by id (`/files/<id>`)
 * or by name (`.gitbook/assets/<name>` and other relative paths). Anchors within the same page
 * and references that are not links to content (reusable content, other schemes) are left out.
 */
export function resolveRevisionLinks(
  tree: RevisionTree,
  options: ResolveLinksOptions,
): RevisionLink[] {
  const pageIds = new Set<string>();
  const apiPaths = new Map<string, string>();
  for (const { page, path } of walkPages(tree.pages)) {
    pageIds.add(page.id);
    if (page.type !== 'link' && !apiPaths.has(path)) apiPaths.set(path, page.id);
  }
  const gitPaths = gitSyncPagePaths(tree.pages);
  const gitPathOf = new Map<string, { path: string; readme: boolean }>();
  for (const [path, { id, file }] of gitPaths) {
    gitPathOf.set(id, { path, readme: file.endsWith('README.md') });
  }
  const fileIds = new Set(tree.files.map((file) => file.id));
  const filesByName = new Map<string, StoredFile>();
  for (const file of tree.files) if (!filesByName.has(file.name)) filesByName.set(file.name, file);
  const origin = originOf(options.serverOrigin);

  const byKey = new Map<string, { link: RevisionLink; seen: Set<string> }>();
  const add = (fromPage: string, resolved: Resolved) => {
    let entry = byKey.get(resolved.key);
    if (!entry) {
      entry = { link: { ...resolved, pages: [] }, seen: new Set() };
      byKey.set(resolved.key, entry);
    }
    if (!entry.seen.has(fromPage)) {
      entry.seen.add(fromPage);
      entry.link.pages.push(fromPage);
    }
  };

  const pageById = (id: string): Resolved => ({
    key: `page:${id}`,
    status: 'ok',
    target: { kind: 'page', page: id },
  });
  const pageByIdOrBroken = (id: string): Resolved =>
    pageIds.has(id) ? pageById(id) : { ...pageById(id), status: 'broken' };
  const fileById = (id: string): Resolved => ({
    key: `file:${id}`,
    status: fileIds.has(id) ? 'ok' : 'broken',
    target: { kind: 'file', file: id },
  });
  const pageMissing = (path: string): Resolved => ({
    key: `page-path:${path}`,
    status: 'broken',
    target: { kind: 'page', path },
  });

  const resolvePage = (
    link: ExtractedLink,
    from: { path: string; readme: boolean } | undefined,
  ): Resolved => {
    if (link.pageId !== undefined) {
      // `/pages/<slug>` may also name a top-level page by slug (the published API accepts both).
      const bySlug = pageIds.has(link.pageId) ? undefined : apiPaths.get(link.pageId);
      return bySlug ? pageById(bySlug) : pageByIdOrBroken(link.pageId);
    }
    const path = link.path ?? '';
    if (path.startsWith('/')) {
      // Git-style absolute refs: `/pages/<slug>.md`, `/pages/<slug>/README.md`.
      const gitPath = filePathToPagePath(path.replace(/^\/pages\//, ''));
      const found = gitPath === null ? undefined : gitPaths.get(gitPath);
      return found ? pageById(found.id) : pageMissing(gitPath ?? path);
    }
    const gitPath = from
      ? resolveRelativePagePath(from.path, link.href, { fromIsReadme: from.readme })
      : null;
    const found = gitPath === null ? undefined : gitPaths.get(gitPath);
    return found ? pageById(found.id) : pageMissing(gitPath ?? link.href.trim());
  };

  const resolveFile = (link: ExtractedLink): Resolved => {
    if (link.fileId !== undefined) return fileById(link.fileId);
    const name = (link.path ?? '').split('/').pop() ?? '';
    const file = filesByName.get(name);
    if (file) return fileById(file.id);
    return { key: `file-name:${name}`, status: 'broken', target: { kind: 'file', name } };
  };

  for (const { page } of walkPages(tree.pages)) {
    if (page.type !== 'document' || !page.body) continue;
    const markdown = options.body(page.body);
    if (markdown === undefined) continue;
    const links = options.linksOf ? options.linksOf(page.body, markdown) : extractLinks(markdown);
    const from = gitPathOf.get(page.id);
    for (const link of links) {
      switch (link.kind) {
        case 'page':
          add(page.id, resolvePage(link, from));
          break;
        case 'file':
          add(page.id, resolveFile(link));
          break;
        case 'external': {
          const url = link.href.trim();
          const status: LinkStatus = origin !== null && originOf(url) === origin ? 'in-app' : 'ok';
          add(page.id, { key: `url:${url}`, status, target: { kind: 'url', url } });
          break;
        }
        case 'other': {
          // Git Sync writes references it could not resolve as `/broken/pages/<id>` (or files).
          const broken = /^\/broken\/(pages|files)\/([^/]+)/.exec(link.path ?? '');
          const id = broken?.[2];
          if (id && broken[1] === 'pages') add(page.id, pageByIdOrBroken(id));
          else if (id) add(page.id, fileById(id));
          else {
            // `/pages/<parent-slug>/<slug>`: a page by its API path.
            const apiPath = /^\/pages\/(.+?)\/?$/.exec(link.path ?? '')?.[1];
            const found = apiPath === undefined ? undefined : apiPaths.get(apiPath);
            if (found) add(page.id, pageById(found));
            else if (apiPath !== undefined) add(page.id, pageMissing(apiPath));
          }
          break;
        }
        default:
          break;
      }
    }
  }
  return [...byKey.values()]
    .map((entry) => entry.link)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Lower-case `scheme://host[:port]` of an absolute http(s) URL, or null. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
