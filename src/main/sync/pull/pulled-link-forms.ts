import { readFile } from 'node:fs/promises';
import { contentHash } from '../../cache/content-hash';
import type { LinkForms } from '../../mirror/page-link-forms';
import { resolveInside } from '../../mirror/resolve-inside';
import type { RemotePage, RemoteRevision } from '../../sync-ports';
import type { EngineContext } from '../engine-context';
import { linkFormsOf } from '../link-references';

/**
 * The link forms a pull renders each page with (see page-link-forms): what the server holds as
 * `/pages/<id>` comes back as the user wrote it while it still names the same page.
 *
 * A page's forms are read from the text its server Markdown came from: the file as it was pushed
 * (a local edit row whose bytes are still on disk) when the page changed on the server, which is
 * how the user's own push comes back merged; otherwise the last synced text (the base), so a page
 * the server did not change renders as it was. Asked lazily: only pages that link to pages.
 */
export async function pulledLinkForms(
  ctx: EngineContext,
  spaceId: string,
  spaceRoot: string,
  revision: RemoteRevision,
): Promise<(pageId: string) => LinkForms | undefined> {
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
  const baseForms = linkFormsOf(index);
  const pushedForms = linkFormsOf(ctx.edits.overlay(spaceId, index));
  const memo = new Map<string, LinkForms | undefined>();
  const formsOf = (pageId: string): LinkForms | undefined => {
    const local = pushed.get(pageId);
    const changed = remote.get(pageId) !== ctx.content.pageMarkdown(spaceId, pageId);
    if (local !== undefined && changed) return pushedForms(local.text, local.path);
    const synced = base.get(pageId);
    const text = synced === undefined ? undefined : ctx.texts.get(synced.hash);
    if (synced !== undefined && text !== undefined) return baseForms(text, synced.path);
    return local === undefined ? undefined : pushedForms(local.text, local.path);
  };
  return (pageId) => {
    if (!memo.has(pageId)) memo.set(pageId, formsOf(pageId));
    return memo.get(pageId);
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
