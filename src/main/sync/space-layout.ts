import { mirrorSpaceOf } from '../../shared/gitsync/mirror-space-of';
import {
  renderGitSyncLayout,
  type RenderLayoutOptions,
} from '../../shared/gitsync/render-gitsync-layout';
import type { RemoteFile, RemoteRevision } from '../sync-ports';

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
  options: RenderLayoutOptions = {},
): LayoutEntry[] {
  const layout = renderGitSyncLayout(mirrorSpaceOf(revision), options);
  const files = new Map(revision.files.map((file) => [file.id, file]));
  const entries: LayoutEntry[] = [];
  for (const [path, entry] of layout.files) {
    if (entry.kind === 'page') {
      entries.push({ path, kind: 'page', pageId: entry.pageId, text: entry.content });
    } else if (entry.kind === 'summary') {
      entries.push({ path, kind: 'layout', text: entry.content });
    } else {
      const file = files.get(entry.fileId);
      if (file === undefined) throw new Error(`The layout names an unknown file ${entry.fileId}`);
      entries.push({ path, kind: 'asset', fileId: entry.fileId, file });
    }
  }
  return entries;
}

/** The published API's revision → the mirror's model (shared with the server's export). */
export { mirrorSpaceOf };
