import type { Stats } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { contentHash } from '../../cache/content-hash';
import type { LocalEdit } from '../../cache/local-edits';
import { atomicWriteFile, ensureDir, fsyncDirectory } from '../../mirror/atomic-write';
import { assertNoSymlinkOnPath, resolveInside } from '../../mirror/resolve-inside';
import type { EngineContext } from '../engine-context';
import type { LayoutEntry } from '../space-layout';
import { removeEmptyParents } from '../sync-fs-helpers';
import { lstatOrNull } from '../../../common/fs/lstat-or-null';
import { linkFormOnly } from './link-form-only';

/**
 * A page created or moved locally can land at another path than its file (its folder gained
 * the page's children, a parent moved out of a deleted page): once the revision holds the
 * file's bytes, the file moves to the page's path and its edit row with it, so the pull
 * finds it there instead of writing a second copy. The rename goes first: a crash before the
 * row moves leaves a file the next push sees as moved to where the server has it (a no-op).
 *
 * Relative links read differently at another path, so the revision may hold the file's text
 * with its links written for the page's path (see linkFormOnly): then the file, once at the
 * page's path, takes the revision's text (the user's, its links rewritten for where it is now)
 * and its edit row those bytes, which the pull then finds in place and settles.
 */
export async function followPlacedPages(
  ctx: EngineContext,
  spaceId: string,
  spaceRoot: string,
  layout: readonly LayoutEntry[],
): Promise<void> {
  const layoutPaths = new Set(layout.map((entry) => entry.path));
  const byPage = new Map(
    layout.filter((entry) => entry.pageId !== undefined).map((e) => [e.pageId!, e] as const),
  );
  let open: Promise<boolean> | undefined;
  let queued: Set<string | null> | undefined;
  let sameContent: ReturnType<typeof linkFormOnly> | undefined;
  const queuedPages = () =>
    (queued ??= new Set(ctx.outbox.pending(spaceId).map((item) => item.pageId)));
  const workingOpen = () =>
    (open ??= ctx.drainer?.workingChangeRequestOpen(spaceId) ?? Promise.resolve(false));
  for (const edit of ctx.edits.list(spaceId)) {
    if (edit.kind !== 'page' || edit.pageId === null || edit.contentHash === null) continue;
    const entry = byPage.get(edit.pageId);
    if (entry?.text === undefined) continue;
    const relinked = contentHash(entry.text) !== edit.contentHash;
    if (entry.path === edit.path && !relinked) continue;
    // The revision has the page where the last sync put it. Same bytes there prove nothing
    // for a moved page: its move may not be in the revision yet (still queued, or pushed to a
    // working change request not merged), and moving the file back would undo the user's move
    // (and place what is created in its folder later under the wrong page). Only once the
    // working change request is merged is this where the server put the page (a parent
    // deleted with it lifted it out, say).
    if (entry.path !== edit.path && ctx.index.get(spaceId, entry.path)?.pageId === edit.pageId) {
      if (queuedPages().has(edit.pageId) || (await workingOpen())) continue;
    }
    // Text that only says the same is no proof while the edit is still to be pushed.
    if (relinked && queuedPages().has(edit.pageId)) continue;
    // A row at the page's path blocks the move, unless it is the page's own old path (deleted).
    const atTarget = ctx.edits.list(spaceId).find((e) => e.path === entry.path);
    if (
      entry.path !== edit.path &&
      (layoutPaths.has(edit.path) ||
        (atTarget !== undefined &&
          (atTarget.contentHash !== null || atTarget.pageId !== edit.pageId)))
    ) {
      continue;
    }
    const from = resolveInside(spaceRoot, edit.path);
    const to = resolveInside(spaceRoot, entry.path);
    const fromStats = await lstatOrNull(from);
    if (fromStats === null || !fromStats.isFile()) continue;
    if (entry.path !== edit.path && (await lstatOrNull(to)) !== null) continue;
    await assertNoSymlinkOnPath(spaceRoot, from);
    const bytes = await readFile(from);
    if (contentHash(bytes) !== edit.contentHash) continue;
    if (relinked) {
      sameContent ??= linkFormOnly(ctx, spaceId, layout);
      if (!sameContent(edit, bytes.toString('utf8'), entry)) continue;
    }
    if (entry.path !== edit.path) await moveFile(spaceRoot, edit.path, from, to);
    const stats = relinked ? await rewriteLinks(spaceRoot, to, bytes, entry.text) : null;
    const moved: LocalEdit = {
      ...edit,
      path: entry.path,
      ...(stats !== null
        ? { contentHash: contentHash(entry.text), size: stats.size, mtimeMs: stats.mtimeMs }
        : {}),
    };
    ctx.db.transaction(() => {
      ctx.edits.remove(spaceId, edit.path);
      ctx.edits.put(spaceId, moved);
    })();
  }
}

async function moveFile(spaceRoot: string, relative: string, from: string, to: string) {
  await ensureDir(path.dirname(to), { root: spaceRoot });
  await assertNoSymlinkOnPath(spaceRoot, to);
  await rename(from, to);
  await fsyncDirectory(path.dirname(to));
  await fsyncDirectory(path.dirname(from));
  await removeEmptyParents(spaceRoot, relative);
}

/**
 * The file at `target` takes `text` unless it was changed since it was read as `was`: its stats
 * once written, or null when it was left as it is.
 */
async function rewriteLinks(
  spaceRoot: string,
  target: string,
  was: Buffer,
  text: string,
): Promise<Stats | null> {
  if (!(await readFile(target)).equals(was)) return null;
  await atomicWriteFile(target, text, { root: spaceRoot });
  return lstatOrNull(target);
}
