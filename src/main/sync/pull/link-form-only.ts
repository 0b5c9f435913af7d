import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { EngineContext } from '../engine-context';
import { serverReferences } from '../link-references';
import type { LayoutEntry } from '../space-layout';

/**
 * Whether a page file's text (an edit row's bytes) says what the revision's text for the page
 * says, and differs only in how its relative links are written: a link to `.gitbook/assets/x.png`
 * reads `../.gitbook/assets/x.png` once the page's file sits a folder deeper (it gained children,
 * or moved). Both are compared in the server's form (`/files/<id>`, `/pages/<id>`): the edit's
 * text read at its path, or at the page's synced path (a file moved without its links rewritten:
 * the server read them where the page was), the revision's at its layout path.
 */
export function linkFormOnly(
  ctx: EngineContext,
  spaceId: string,
  layout: readonly LayoutEntry[],
): (edit: LocalEdit, text: string, entry: LayoutEntry) => boolean {
  const index = ctx.index.entries(spaceId);
  const pushedForm = serverReferences(ctx.edits.overlay(spaceId, index));
  const remoteForm = serverReferences(layout.map(viewEntryOf));
  return (edit, text, entry) => {
    if (entry.text === undefined) return false;
    const remote = remoteForm(entry.text, entry.path);
    if (pushedForm(text, edit.path) === remote) return true;
    const synced = index.find((row) => row.pageId !== null && row.pageId === edit.pageId);
    return synced !== undefined && pushedForm(text, synced.path) === remote;
  };
}

/** A layout entry as the file index would name it (what link resolution needs of it). */
function viewEntryOf(entry: LayoutEntry): FileIndexEntry {
  return {
    path: entry.path,
    kind: entry.kind,
    pageId: entry.pageId ?? null,
    fileId: entry.fileId ?? null,
    contentHash: '',
    size: -1,
    mtimeMs: -1,
  };
}
