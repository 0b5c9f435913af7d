import type { CachedSpace } from '../cache/space-cache';
import { PUSH_PROBLEM_KINDS } from '../cache/sync-problems';
import { isTokenRejected, RemoteUnavailableError } from '../remote/errors';
import {
  CHANGE_REQUESTS_PULLED_AT,
  pullChangeRequests,
} from '../change-requests/pull-change-requests';
import { syncComments } from '../comments/sync-comments';
import { nowOf, type EngineContext } from './engine-context';
import { pullSpace } from './pull/pull-space';
import type { RemoteRevision } from '../sync-ports';
import { RevisionPrefetch } from './revision-prefetch';
import { hasMirror, removeSpace } from './remove-space';
import { pushSpace } from './run-push';
import { refreshSpaces } from './space-listing';
import { syncErrorOf } from './sync-error-of';
import { assertFolderExists } from './sync-fs-helpers';
import { messageOf } from '../../shared/message-of';
import { emptyReport, type SpaceSyncReport } from './sync-report';
import { SyncStopped, type SyncRun } from './sync-run';

/**
 * syncOnce's run: refreshes the space list, pushes, then mirrors every enabled space whose
 * revision moved and cleans up spaces removed remotely.
 */
export async function runSync(ctx: EngineContext, run: SyncRun): Promise<void> {
  const { report } = run;
  if (run.stopRequested) {
    report.finishedAt = nowOf(ctx);
    return;
  }
  try {
    await assertFolderExists(ctx.folder);
    const refresh = await refreshSpaces(ctx);
    report.errors.push(...refresh.errors);
  } catch (error) {
    report.errors.push(syncErrorOf(error));
    if (error instanceof RemoteUnavailableError) report.offline = true;
    if (isTokenRejected(error)) report.tokenRejected = true;
    ctx.log('error', 'sync aborted', { error: messageOf(error) });
    report.finishedAt = nowOf(ctx);
    ctx.onProgress({ phase: 'done', done: 0, total: 0 });
    return;
  }

  const all = ctx.spaces.listSpaces();
  for (const space of all.filter((s) => s.removedAt !== null && hasMirror(ctx, s))) {
    report.spaces.push(await removeSpace(ctx, space));
  }
  const { pushed, deferred, relisted } = await pushFirst(ctx, run, all);
  const current = relisted ? ctx.spaces.listSpaces() : all;
  const due = current.filter(
    (space) =>
      space.removedAt === null &&
      space.enabled &&
      space.remoteRevision !== null &&
      (space.remoteRevision !== space.syncedRevision || downloadsFailed(ctx, space.id)),
  );
  const revisions = new RevisionPrefetch(ctx, run, due);
  for (const [index, space] of due.entries()) {
    if (run.stopRequested) break;
    const spaceReport = await syncSpace(ctx, run, space, {
      pushed: pushed.get(space.id),
      drainAfter: deferred.has(space.id),
      revision: revisions.take(index),
    });
    pushed.delete(space.id);
    report.spaces.push(spaceReport);
  }
  for (const spaceReport of pushed.values()) {
    const busy =
      (spaceReport.pushed ?? 0) > 0 ||
      (spaceReport.queued ?? 0) > 0 ||
      spaceReport.problems.length > 0 ||
      spaceReport.written.length > 0 ||
      spaceReport.error !== undefined;
    if (busy) report.spaces.push(spaceReport);
  }
  await mirrorChangeRequests(ctx, run);
  await runCommentStep(ctx, run);
  for (const space of report.spaces) {
    report.filesWritten += space.written.length;
    report.filesRemoved += space.removed.length;
    if (space.offline) report.offline = true;
  }
  report.finishedAt = nowOf(ctx);
  markChecked(ctx, run);
  ctx.onProgress({ phase: 'done', done: due.length, total: due.length });
}

/**
 * Push first: the pull then sees what was pushed as local edits waiting in the working change
 * request (kept), never as files to overwrite. A space that moved on the server since its last
 * pull only queues here and sends after its pull (`deferred`): its working change request may be
 * created from (or hold) the new main, and a local file sent as it is would silently replace the
 * remote edits there; the pull merges them first or records a conflict (held back).
 */
async function pushFirst(
  ctx: EngineContext,
  run: SyncRun,
  all: readonly CachedSpace[],
): Promise<{ pushed: Map<string, SpaceSyncReport>; deferred: Set<string>; relisted: boolean }> {
  const pushed = new Map<string, SpaceSyncReport>();
  const deferred = new Set<string>();
  if (ctx.pusher !== undefined) {
    for (const space of all) {
      if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
      if (run.stopRequested) break;
      const moved = space.remoteRevision !== null && space.remoteRevision !== space.syncedRevision;
      if (moved) deferred.add(space.id);
      pushed.set(space.id, await pushSpace(ctx, run, space, moved ? { drain: false } : {}));
    }
  }
  const movedMeanwhile = [...pushed.values()].filter((pushedSpace) => pushedSpace.mainMoved);
  if (movedMeanwhile.length > 0 && !run.stopRequested) {
    // Main moved between the listing and the creation of a working change request: list again
    // so that this run pulls it, then sends the edits (see OutboxDrainer's expectedBase).
    const refresh = await refreshSpaces(ctx);
    run.report.errors.push(...refresh.errors);
    for (const moved of movedMeanwhile) deferred.add(moved.spaceId);
    return { pushed, deferred, relisted: true };
  }
  return { pushed, deferred, relisted: false };
}

/**
 * A run that listed every organization has checked each synced space it did not fail on: its
 * last sync moves even when nothing was pulled (the folder is known to be current then).
 */
function markChecked(ctx: EngineContext, run: SyncRun): void {
  const { report } = run;
  if (report.errors.length > 0 || report.offline || run.stopRequested) return;
  const failed = new Set(
    report.spaces.filter((space) => space.error !== undefined).map((space) => space.spaceId),
  );
  for (const space of ctx.spaces.listSpaces()) {
    if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
    if (failed.has(space.id) || space.remoteRevision !== space.syncedRevision) continue;
    ctx.spaces.markChecked(space.id, report.finishedAt);
  }
}

/** Whether the space's last pull left files it could not download: the next sync tries again. */
function downloadsFailed(ctx: EngineContext, spaceId: string): boolean {
  return ctx.problems.list(spaceId).some((problem) => problem.kind === 'download-failed');
}

/**
 * Mirrors one space at its listed remote revision (`revision`: its fetch, already started).
 * Errors end up in the report, not thrown. `drainAfter`: its push only queued (the space moved
 * remotely): sent once pulled.
 */
async function syncSpace(
  ctx: EngineContext,
  run: SyncRun,
  space: CachedSpace,
  how: {
    pushed: SpaceSyncReport | undefined;
    drainAfter: boolean;
    revision: Promise<RemoteRevision>;
  },
): Promise<SpaceSyncReport> {
  const { pushed, drainAfter } = how;
  const report = pushed ?? emptyReport(space);
  report.pulled = true;
  try {
    const needsPush = await pullSpace(ctx, run, space, report, how.revision);
    ctx.log('info', 'space synced', {
      space: space.id,
      revision: report.toRevision,
      written: report.written.length,
      removed: report.removed.length,
    });
    const synced = ctx.spaces.getSpace(space.id);
    if ((needsPush || drainAfter) && ctx.pusher !== undefined && synced !== undefined) {
      // Merged files and re-created pages are pushed by this run, not the next one; so are
      // the edits queued before the pull.
      mergePushReport(report, await pushSpace(ctx, run, synced));
    }
    if (ctx.drainer !== undefined && space.syncedRevision !== null && !run.stopRequested) {
      // Main moved: this device's working change request follows it (one request, only when
      // there is one), so merging it later does not conflict with what was just pulled.
      await ctx.drainer.followMain(space.id);
    }
  } catch (error) {
    if (error instanceof SyncStopped) {
      // Not a failure: the pull is redone by the next run (its files are in the journal).
      report.stopped = true;
      ctx.log('info', 'space sync stopped', { space: space.id });
      return report;
    }
    report.error = syncErrorOf(error);
    if (error instanceof RemoteUnavailableError) report.offline = true;
    ctx.spaces.setError(space.id, report.error.message);
    ctx.log('error', 'space sync failed', { space: space.id, error: report.error });
  }
  return report;
}

/** Adds the push that followed a pull to the space's report. */
export function mergePushReport(report: SpaceSyncReport, again: SpaceSyncReport): void {
  report.queued = (report.queued ?? 0) + (again.queued ?? 0);
  report.pushed = (report.pushed ?? 0) + (again.pushed ?? 0);
  report.written.push(...again.written.filter((path) => !report.written.includes(path)));
  // The second push scanned the folder as the pull left it: its push problems replace the
  // first one's (a file no page owned may have gained its owner with the pull).
  report.problems = report.problems.filter((problem) => !PUSH_PROBLEM_KINDS.has(problem.kind));
  const seen = new Set(report.problems.map((problem) => `${problem.kind}\0${problem.path}`));
  for (const problem of again.problems) {
    if (!seen.has(`${problem.kind}\0${problem.path}`)) report.problems.push(problem);
  }
  if (again.offline) report.offline = true;
  if (again.error !== undefined) report.error = again.error;
}

/** The mirror is refreshed at most this often unless the engine says otherwise. */
const CHANGE_REQUEST_INTERVAL_MS = 60_000;

/**
 * The change-request mirror follows the pull on every run whose last refresh is older than its
 * interval (reviews move without main moving, so it does not wait for a revision to move). Its
 * failures are logged and retried by the next run; they never fail the sync.
 */
async function mirrorChangeRequests(ctx: EngineContext, run: SyncRun): Promise<void> {
  const options = ctx.changeRequests;
  if (options === undefined || run.stopRequested || run.report.offline) return;
  const now = ctx.clock.now().getTime();
  const last = Date.parse(ctx.state.get(CHANGE_REQUESTS_PULLED_AT) ?? '');
  const interval = options.intervalMs ?? CHANGE_REQUEST_INTERVAL_MS;
  try {
    // What the user queued offline goes with the next sync, whatever the mirror's interval.
    for (const problem of (await options.sendQueued?.()) ?? []) ctx.log('warn', problem);
    const fresh = Number.isFinite(last) && now - last >= 0 && now - last < interval;
    if (fresh && !run.refreshChangeRequests) return;
    const pulled = await pullChangeRequests({
      db: ctx.db,
      spaces: ctx.spaces,
      content: ctx.content,
      remote: ctx.remote,
      changeRequests: options.remote,
      now: () => nowOf(ctx),
      log: ctx.log,
    });
    for (const error of pulled.errors) ctx.log('warn', error);
    // After a failure the next run tries again, whatever the interval.
    if (pulled.errors.length === 0) {
      ctx.state.set(CHANGE_REQUESTS_PULLED_AT, new Date(now).toISOString());
    }
  } catch (error) {
    ctx.log('warn', 'change requests not mirrored', { error: messageOf(error) });
  }
}

/** Comments go after the page pushes and pulls (and the change-request mirror they follow). */
async function runCommentStep(ctx: EngineContext, run: SyncRun): Promise<void> {
  const options = ctx.comments;
  if (options === undefined || run.stopRequested || run.report.offline) return;
  run.report.comments = await syncComments({
    ...options,
    db: ctx.db,
    spaces: ctx.spaces,
    paused: ctx.pauses.state().paused,
    refresh: run.refreshChangeRequests,
    now: () => ctx.clock.now(),
    log: ctx.log,
  });
}
