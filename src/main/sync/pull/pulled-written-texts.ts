import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { contentHash } from '../../cache/content-hash';
import { resolveInside } from '../../mirror/resolve-inside';
import type { RemotePage, RemoteRevision } from '../../sync-ports';
import type { EngineContext } from '../engine-context';
import { serverReferences } from '../link-references';

/**
 * The text each page's links are rendered after by a pull (see page-link-forms): what the server
 * holds as `/pages/<id>` comes back in the form written there while it still names the same page.
 *
 * That is the text the page's server Markdown came from: the file as it was pushed (a local edit
 * row whose bytes are still on disk) when the page changed on the server, which is how the user's
 * own push comes back merged; otherwise the last synced text (the base), so a page the server did
 * not change renders as it was; for a page this home has never synced (a new home on a mirrored
 * folder), the file at its path, so a file that says the same is adopted as it is. Asked lazily:
 * only of pages that link to pages.
 */
export async function pulledWrittenTexts(
  ctx: EngineContext,
  spaceId: string,
  spaceRoot: string,
  revision: RemoteRevision,
): Promise<(pageId: string, path: string) => string | undefined> {
  const index = ctx.index.entries(spaceId);
  const base = new Map<string, { path: string; hash: string }>();
  for (const entry of index) {
    if (entry.kind === 'page' && entry.pageId !== null) {
      base.set(entry.pageId, { path: entry.path, hash: entry.contentHash });
    }
  }
  const pushed = new Map<string, { path: string; text: string }>();
  for (const edit of ctx.edits.list(spaceId)) {
    if (edit.pageId === null || edit.contentHash === null) continue;
    const text = await readText(spaceRoot, edit.path);
    if (text !== null && contentHash(text) === edit.contentHash) {
      pushed.set(edit.pageId, { path: edit.path, text });
    }
  }
  const remote = remoteMarkdown(revision.pages);
  const baseForm = serverReferences(index);
  const pushedForm = serverReferences(ctx.edits.overlay(spaceId, index));
  return (pageId, path) => {
    const local = pushed.get(pageId);
    if (local !== undefined && remote.get(pageId) !== ctx.content.pageMarkdown(spaceId, pageId)) {
      return local.text;
    }
    const synced = base.get(pageId);
    if (synced === undefined) return local?.text ?? readTextSync(spaceRoot, path);
    const text = ctx.texts.get(synced.hash);
    if (text === undefined || local === undefined) return text ?? local?.text;
    // An edit that changed only how its links are written says what the server holds.
    return baseForm(text, synced.path) === pushedForm(local.text, local.path) ? local.text : text;
  };
}

function remoteMarkdown(
  pages: readonly RemotePage[],
  out = new Map<string, string | undefined>(),
): Map<string, string | undefined> {
  for (const page of pages) {
    out.set(page.id, page.markdown);
    remoteMarkdown(page.pages, out);
  }
  return out;
}

async function readText(spaceRoot: string, path: string): Promise<string | null> {
  try {
    return await readFile(resolveInside(spaceRoot, path), 'utf8');
  } catch {
    return null;
  }
}

function readTextSync(spaceRoot: string, path: string): string | undefined {
  try {
    return readFileSync(resolveInside(spaceRoot, path), 'utf8');
  } catch {
    return undefined;
  }
}
