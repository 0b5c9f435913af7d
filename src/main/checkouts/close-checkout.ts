import path from 'node:path';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import type { CachedSpace } from '../cache/space-cache';
import { WorkingChangeRequests } from '../outbox/working-change-requests';
import {
  heldFiles,
  nowOf,
  reportProblem,
  spaceRootOf,
  type EngineContext,
} from '../sync/engine-context';
import { removeSpace } from '../sync/remove-space';
import { pushSpace } from '../sync/run-push';
import { removeDirIfEmpty } from '../sync/sync-fs-helpers';
import { emptyReport, type SpaceSyncReport } from '../sync/sync-report';
import type { SyncRun } from '../sync/sync-run';
import { findUnsyncedEdits } from '../sync/unsynced-edits';
import type { CheckoutRow } from './checkout-store';

/**
 * A checked-out change request merged or archived on the server (or gone). Its folder goes once
 * nothing local is pending there; with edits not sent (queued, in conflict, or not pushable) it
 * stays, reported (`closedWithPending`, and a problem saying what to do), never deleted. Once
 * the user has deleted such a folder, the checkout is forgotten.
 */
export async function closeCheckout(
  ctx: EngineContext,
  run: SyncRun,
  closing: { checkout: CheckoutRow; space: CachedSpace },
  status: string,
): Promise<SpaceSyncReport> {
  const { checkout, space } = closing;
  ctx.checkouts.record(checkout.key, status, checkout.subject);
  new WorkingChangeRequests(ctx.db).markClosed(checkout.key);
  const root = spaceRootOf(ctx, space);
  if ((await lstatOrNull(root)) === null) {
    forgetCheckout(ctx, checkout.key);
    return { ...emptyReport(space), toRevision: null, removedSpace: true };
  }
  // Whatever was saved since the last push is queued first: it counts as pending.
  const report = ctx.pusher
    ? await pushSpace(ctx, run, space, { drain: false })
    : emptyReport(space);
  if ((await pendingEdits(ctx, space.id, root)) === 0) {
    const removed = await removeSpace(ctx, space);
    if (removed.problems.length === 0 && removed.error === undefined) {
      forgetCheckout(ctx, checkout.key);
      await removeDirIfEmpty(ctx.folder, path.dirname(root));
      return removed;
    }
    report.problems.push(...removed.problems);
  }
  ctx.checkouts.markClosedWithPending(checkout.key, true);
  const message =
    `Change request #${checkout.number} was ${status} on the server before the edits in ` +
    `${space.folderPath} were sent: they are kept there, sent nowhere. Copy what you need into ` +
    'the space folder (or another checkout), then delete this folder: Quire then forgets it';
  reportProblem(ctx, report, 'kept-deleted', null, null, message);
  ctx.problems.add({
    spaceId: space.id,
    kind: 'kept-deleted',
    path: null,
    pageId: null,
    message,
    createdAt: nowOf(ctx),
  });
  return report;
}

/** Edits in the folder the server does not have: queued, in conflict, unqueued or unpushable. */
async function pendingEdits(ctx: EngineContext, key: string, root: string): Promise<number> {
  const held = heldFiles(ctx, key);
  const unsynced = await findUnsyncedEdits(
    {
      index: ctx.index,
      edits: ctx.edits,
      ignore: ctx.ignore,
      reportedPaths: () => [],
    },
    [{ spaceId: key, root, held }],
  );
  const notPushed = ctx.problems
    .list(key)
    .filter((problem) => problem.kind === 'not-pushed' || problem.kind === 'push-blocked');
  return (
    ctx.outbox.count(key) + ctx.conflictStore.open(key).length + unsynced.length + notPushed.length
  );
}

/** Drops every row of a checkout (its folder is gone, or held nothing pending). */
export function forgetCheckout(ctx: EngineContext, key: string): void {
  ctx.db.transaction(() => {
    ctx.outbox.discard(key);
    ctx.edits.clearSpace(key);
    ctx.index.clearSpace(key);
    ctx.content.clearSpace(key);
    ctx.conflictStore.clearSpace(key);
    for (const problem of ctx.problems.list(key)) ctx.problems.remove(problem.id);
    new WorkingChangeRequests(ctx.db).retire(key);
    ctx.spaces.deleteSpace(key);
  })();
}
