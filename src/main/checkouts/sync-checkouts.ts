import { lstatOrNull } from '../../common/fs/lstat-or-null';
import type { CachedSpace } from '../cache/space-cache';
import { RemoteUnavailableError } from '../remote/errors';
import type { RemoteChangeRequest } from '../sync-ports';
import { pullSpace } from '../sync/pull/pull-space';
import { mergePushReport } from '../sync/run-sync';
import { pushSpace } from '../sync/run-push';
import { nowOf, spaceRootOf, type EngineContext } from '../sync/engine-context';
import { syncErrorOf } from '../sync/sync-error-of';
import { emptyReport, type SpaceSyncReport } from '../sync/sync-report';
import { SyncStopped, type SyncRun } from '../sync/sync-run';
import { CLOSED_STATUSES } from './check-out';
import { closeCheckout, forgetCheckout } from './close-checkout';
import type { CheckoutRow } from './checkout-store';

/**
 * syncOnce's part for checkouts, after the spaces: each checked-out change request is asked for
 * (one request), its folder's edits pushed to it, and its revision pulled when it moved (others'
 * edits, or this push's). Merged or archived, its folder is closed (see closeCheckout).
 */
export async function syncCheckouts(ctx: EngineContext, run: SyncRun): Promise<SpaceSyncReport[]> {
  const reports: SpaceSyncReport[] = [];
  for (const checkout of ctx.checkouts.list()) {
    if (run.stopRequested) break;
    const space = ctx.spaces.getSpace(checkout.key);
    if (space !== undefined) reports.push(await syncCheckout(ctx, run, checkout, space));
  }
  return reports;
}

/**
 * pushOnce's part: a checkout's edits are queued (no request); only when some wait is the
 * change request asked for, and the edits sent (see syncCheckout).
 */
export async function pushCheckouts(ctx: EngineContext, run: SyncRun): Promise<SpaceSyncReport[]> {
  const reports: SpaceSyncReport[] = [];
  if (ctx.pusher === undefined) return reports;
  for (const checkout of ctx.checkouts.list()) {
    const space = ctx.spaces.getSpace(checkout.key);
    if (run.stopRequested || space === undefined || space.syncedRevision === null) continue;
    if (checkout.closedWithPending || (await droppedByUser(ctx, space))) continue;
    const queued = await pushSpace(ctx, run, space, { drain: false });
    if (ctx.outbox.unsent(space.id) === 0) {
      if ((queued.queued ?? 0) > 0 || queued.problems.length > 0) reports.push(queued);
      continue;
    }
    reports.push(await syncCheckout(ctx, run, checkout, space));
  }
  return reports;
}

/**
 * One checkout: pushed first (only queued when the change request moved since the last pull:
 * the pull merges, or records a conflict, before anything is sent over the remote edits), then
 * pulled at the change request's revision, then what waits is sent. Errors end in the report.
 */
async function syncCheckout(
  ctx: EngineContext,
  run: SyncRun,
  checkout: CheckoutRow,
  space: CachedSpace,
): Promise<SpaceSyncReport> {
  let report = emptyReport(space);
  try {
    if (await droppedByUser(ctx, space)) return { ...report, toRevision: null, removedSpace: true };
    const remote = await serverView(ctx, checkout);
    if (remote === null) return report;
    if (remote === undefined || CLOSED_STATUSES.has(remote.status)) {
      if (remote !== undefined && remote.revision !== space.syncedRevision) {
        // Its last content first: edits pushed there are then no longer local ones.
        ctx.spaces.setRemoteRevision(space.id, remote.revision);
        await pullSpace(ctx, run, ctx.spaces.getSpace(space.id)!, report);
      }
      const closed = ctx.spaces.getSpace(space.id)!;
      const status = remote?.status ?? 'archived';
      return await closeCheckout(ctx, run, { checkout, space: closed }, status);
    }
    recordView(ctx, checkout, remote);
    const moved = remote.revision !== space.syncedRevision;
    if (ctx.pusher !== undefined) {
      report = await pushSpace(ctx, run, space, moved ? { drain: false } : {});
    }
    let latest: RemoteChangeRequest | null | undefined = remote;
    // This push moved the change request too: the folder follows it at once.
    if ((report.pushed ?? 0) > 0) latest = await serverView(ctx, checkout);
    if (latest === null || latest === undefined || CLOSED_STATUSES.has(latest.status)) {
      return report;
    }
    recordView(ctx, checkout, latest);
    const current = ctx.spaces.getSpace(space.id)!;
    if (latest.revision === current.syncedRevision) {
      // Known to be current: its last sync moves, as a space's does.
      if (report.error === undefined) ctx.spaces.markChecked(space.id, nowOf(ctx));
      return report;
    }
    report.pulled = true;
    const needsPush = await pullSpace(ctx, run, current, report);
    if ((needsPush || moved) && ctx.pusher !== undefined) {
      mergePushReport(report, await pushSpace(ctx, run, ctx.spaces.getSpace(space.id)!));
    }
  } catch (error) {
    if (error instanceof SyncStopped) {
      report.stopped = true;
      return report;
    }
    report.error = syncErrorOf(error);
    if (error instanceof RemoteUnavailableError) report.offline = true;
    ctx.spaces.setError(space.id, report.error.message);
    ctx.log('error', 'checkout sync failed', { checkout: checkout.key, error: report.error });
  }
  return report;
}

/**
 * The change request as the server has it now; undefined when the server no longer knows it;
 * null when it cannot be asked (no change-request remote: the checkout only pushes then).
 */
async function serverView(
  ctx: EngineContext,
  checkout: CheckoutRow,
): Promise<RemoteChangeRequest | undefined | null> {
  const remote = ctx.changeRequests?.remote;
  if (remote === undefined) return null;
  return remote.getChangeRequest(checkout.spaceId, checkout.changeRequestId);
}

function recordView(ctx: EngineContext, checkout: CheckoutRow, remote: RemoteChangeRequest): void {
  ctx.db.transaction(() => {
    ctx.checkouts.record(checkout.key, remote.status, remote.subject);
    ctx.checkouts.markClosedWithPending(checkout.key, false);
    ctx.spaces.setRemoteRevision(checkout.key, remote.revision);
    // The server answered: an earlier failure to reach it is over.
    ctx.spaces.setError(checkout.key, null);
  })();
}

/** Adds checkouts' reports to a run's (after its spaces'), counting their files. */
export function addCheckoutReports(run: SyncRun, reports: readonly SpaceSyncReport[]): void {
  for (const report of reports) {
    run.report.spaces.push(report);
    run.report.filesWritten += report.written.length;
    run.report.filesRemoved += report.removed.length;
    if (report.offline) run.report.offline = true;
  }
}

/** After syncOnce's run over the spaces: the checkouts, unless it could not reach the server. */
export async function runCheckoutSync(ctx: EngineContext, run: SyncRun): Promise<void> {
  if (run.stopRequested || run.report.offline || run.report.tokenRejected === true) return;
  if (!(await mirrorPresent(ctx))) return;
  addCheckoutReports(run, await syncCheckouts(ctx, run));
}

/** After pushOnce's run over the spaces: the checkouts' edits. */
export async function runCheckoutPush(ctx: EngineContext, run: SyncRun): Promise<void> {
  if (run.stopRequested || run.report.tokenRejected === true) return;
  if (!(await mirrorPresent(ctx))) return;
  addCheckoutReports(run, await pushCheckouts(ctx, run));
}

/**
 * The user deleted the folder of a checkout with nothing queued: that is how a checkout is given
 * up, so it is forgotten (never mirrored again). With edits queued it stays (the push reports
 * the folder missing): they go nowhere until the folder is back.
 */
async function droppedByUser(ctx: EngineContext, space: CachedSpace): Promise<boolean> {
  if (space.syncedRevision === null || ctx.outbox.count(space.id) > 0) return false;
  if ((await lstatOrNull(spaceRootOf(ctx, space))) !== null) return false;
  forgetCheckout(ctx, space.id);
  ctx.log('info', 'checkout folder deleted: checkout forgotten', { checkout: space.id });
  return true;
}

/**
 * Checkouts exist and the mirror root is there: a missing root (an unmounted disk) has already
 * failed the run, and must not pass for folders the user deleted.
 */
async function mirrorPresent(ctx: EngineContext): Promise<boolean> {
  return ctx.checkouts.list().length > 0 && (await lstatOrNull(ctx.folder)) !== null;
}
