import type {
  MirrorCover,
  MirrorFile,
  MirrorLayout,
  MirrorPage,
  MirrorSpace,
} from '../mirror/gitsync-types';
import { pickPageFields } from '../../shared/gitsync/page-fields';
import { renderGitSyncLayout, type RenderLayoutOptions } from '../mirror/render-gitsync-layout';
import type { RemoteFile, RemotePage, RemoteRevision } from '../sync-ports';

/** One file of a space folder as the engine writes it. */
export interface LayoutEntry {
  /** Relative to the space folder, '/'-separated. */
  path: string;
  /** `page`: a document page's file; `layout`: SUMMARY.md; `asset`: an uploaded file. */
  kind: 'page' | 'asset' | 'layout';
  pageId?: string;
  fileId?: string;
  /** The text of a page or layout file. */
  text?: string;
  /** The file an asset is downloaded from. */
  file?: RemoteFile;
}

/**
 * The files of a space folder for a revision, in Git Sync's layout and tree order (page links in
 * the forms of `options.writtenText`, see pulledWrittenTexts).
 */
export function spaceLayout(
  revision: RemoteRevision,
  options: RenderLayoutOptions & {
    /** The table of contents' name when `.gitbook.yaml` gives another (`structure.summary`). */
    summaryPath?: string;
  } = {},
): LayoutEntry[] {
  const layout = renderGitSyncLayout(mirrorSpaceOf(revision), options);
  const files = new Map(revision.files.map((file) => [file.id, file]));
  const entries: LayoutEntry[] = [];
  for (const [path, entry] of layout.files) {
    if (entry.kind === 'page') {
      entries.push({ path, kind: 'page', pageId: entry.pageId, text: entry.content });
    } else if (entry.kind === 'summary') {
      entries.push({ path: options.summaryPath ?? path, kind: 'layout', text: entry.content });
    } else {
      const file = files.get(entry.fileId);
      if (file === undefined) throw new Error(`The layout names an unknown file ${entry.fileId}`);
      entries.push({ path, kind: 'asset', fileId: entry.fileId, file });
    }
  }
  return entries;
}

/** The published API's revision (as the remote client parses it) → the mirror's model. */
export function mirrorSpaceOf(revision: RemoteRevision): MirrorSpace {
  return { pages: revision.pages.map(mirrorPageOf), files: revision.files.map(mirrorFileOf) };
}

function mirrorPageOf(page: RemotePage): MirrorPage {
  const result: MirrorPage = {
    id: page.id,
    type: page.type,
    title: page.title,
    // Link pages have no slug in the API; they have no file either.
    slug: page.slug ?? '',
    pages: page.pages.map(mirrorPageOf),
  };
  Object.assign(result, pickPageFields(page));
  // The remote client validates the page shape; these records follow the published schema.
  if (page.layout !== undefined) result.layout = page.layout as MirrorLayout;
  if (page.cover !== undefined) result.cover = page.cover as MirrorCover;
  if (page.href !== undefined) result.href = page.href;
  if (page.markdown !== undefined) result.markdown = page.markdown;
  const linkTitle = (page as { linkTitle?: unknown }).linkTitle;
  if (typeof linkTitle === 'string') result.linkTitle = linkTitle;
  return result;
}

function mirrorFileOf(file: RemoteFile): MirrorFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    downloadURL: file.downloadURL,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
  };
}
