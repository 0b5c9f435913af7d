/**
 * Where the links and images of a page body point in the views: links to pages of the same
 * revision (relative Git Sync `.md` paths, `/pages/<id>`, `/pages/<api path>`) become view
 * addresses, and files (`/files/<id>`, `.gitbook/assets/<name>`) their signed download URLs —
 * the same resolution rules as GET …/links (resources/links/revision-links.ts). Anything else is
 * left as written for the sanitiser to judge.
 */
import type { ExtractedLink } from '../content/markdown-links';
import {
  filePathToPagePath,
  gitSyncPagePaths,
  resolveRelativePagePath,
} from '../content/page-paths';
import { walkPages, type RevisionTree, type StoredFile } from '../content/revision-tree';
import { pageHref } from './content-view';

export interface ViewLinkContext {
  tree: RevisionTree;
  /** The page whose body holds the links (relative links resolve from it). */
  pageId: string;
  /** Where page paths are appended (see ContentView.linkBase). */
  linkBase: string;
  fileHref(file: StoredFile): string;
}

/** The tree's lookups, computed once per page view. */
function indexTree(tree: RevisionTree) {
  const documentPaths = new Map<string, string>();
  const pageByApiPath = new Map<string, string>();
  for (const { page, path } of walkPages(tree.pages)) {
    if (page.type === 'document') documentPaths.set(page.id, path);
    if (page.type !== 'link' && !pageByApiPath.has(path)) pageByApiPath.set(path, page.id);
  }
  const gitPaths = gitSyncPagePaths(tree.pages);
  const gitPathOf = new Map<string, { path: string; readme: boolean }>();
  for (const [path, { id, file }] of gitPaths) {
    gitPathOf.set(id, { path, readme: file.endsWith('README.md') });
  }
  const filesById = new Map(tree.files.map((file) => [file.id, file]));
  const filesByName = new Map<string, StoredFile>();
  for (const file of tree.files) if (!filesByName.has(file.name)) filesByName.set(file.name, file);
  return { documentPaths, pageByApiPath, gitPaths, gitPathOf, filesById, filesByName };
}

type TreeIndex = ReturnType<typeof indexTree>;

/** The id of the page a page link designates, if it is in the tree. */
function targetPage(link: ExtractedLink, index: TreeIndex, fromId: string): string | undefined {
  if (link.pageId !== undefined) {
    return index.documentPaths.has(link.pageId)
      ? link.pageId
      : index.pageByApiPath.get(link.pageId);
  }
  const path = link.path ?? '';
  if (path.startsWith('/pages/')) {
    const gitPath = filePathToPagePath(path.slice('/pages/'.length));
    const byGit = gitPath === null ? undefined : index.gitPaths.get(gitPath)?.id;
    return byGit ?? index.pageByApiPath.get(path.slice('/pages/'.length).replace(/\/$/, ''));
  }
  const from = index.gitPathOf.get(fromId);
  if (!from || path.startsWith('/')) return undefined;
  const gitPath = resolveRelativePagePath(from.path, link.href, { fromIsReadme: from.readme });
  return gitPath === null ? undefined : index.gitPaths.get(gitPath)?.id;
}

function targetFile(link: ExtractedLink, index: TreeIndex): StoredFile | undefined {
  if (link.fileId !== undefined) return index.filesById.get(link.fileId);
  return index.filesByName.get((link.path ?? '').split('/').pop() ?? '');
}

/** The view address of each link target (as written) that designates content of the tree. */
export function viewHrefs(
  links: readonly ExtractedLink[],
  context: ViewLinkContext,
): Record<string, string> {
  const index = indexTree(context.tree);
  const hrefs: Record<string, string> = {};
  for (const link of links) {
    if (link.kind === 'file') {
      const file = targetFile(link, index);
      if (file) hrefs[link.href] = context.fileHref(file);
    } else if (
      link.kind === 'page' ||
      (link.kind === 'other' && link.path?.startsWith('/pages/'))
    ) {
      const id = targetPage(link, index, context.pageId);
      const path = id === undefined ? undefined : index.documentPaths.get(id);
      if (path === undefined) continue;
      const anchor = link.anchor ? `#${encodeURIComponent(link.anchor)}` : '';
      hrefs[link.href] = pageHref(context.linkBase, path) + anchor;
    }
  }
  return hrefs;
}
