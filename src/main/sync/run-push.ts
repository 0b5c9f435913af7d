import type { CachedSpace } from '../cache/space-cache';
import { PUSH_PROBLEM_KINDS } from '../cache/sync-problems';
import { pushGitBookConfig } from './gitbook-config-file';
import { isTokenRejected, RemoteUnavailableError } from '../remote/errors';
import { heldFiles, nowOf, reportProblem, spaceRootOf, type EngineContext } from './engine-context';
import { syncErrorOf } from './sync-error-of';
import { assertFolderExists } from './sync-fs-helpers';
import { messageOf } from '../../shared/message-of';
import { emptyReport, type SpaceSyncReport } from './sync-report';
import type { SyncRun } from './sync-run';

/**
 * pushOnce's run: queues every synced space's local edits and sends them, unless the space moved
 * on the server since its last pull (then the next syncOnce pulls, then sends them).
 */
export async function runPush(ctx: EngineContext, run: SyncRun): Promise<void> {
  const { report } = run;
  if (ctx.pusher !== undefined) await pushAll(ctx, run);
  report.finishedAt = nowOf(ctx);
}

async function pushAll(ctx: EngineContext, run: SyncRun): Promise<void> {
  const { report } = run;
  try {
    await assertFolderExists(ctx.folder);
    for (const space of ctx.spaces.listSpaces()) {
      if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
      if (run.stopRequested) break;
      // Queued first; sent only if the space has not moved on the server since the last
      // pull (see movedSincePull): otherwise the next syncOnce pulls, then sends it.
      let spaceReport = await pushSpace(ctx, run, space, {
        drain: false,
        placeAgainstServer: true,
      });
      if (ctx.outbox.unsent(space.id) > 0 && !run.stopRequested) {
        if (await movedSincePull(ctx, space)) {
          spaceReport.mainMoved = true;
        } else {
          const queued = spaceReport.queued ?? 0;
          spaceReport = await pushSpace(ctx, run, space);
          spaceReport.queued = (spaceReport.queued ?? 0) + queued;
        }
      }
      if (spaceReport.offline) report.offline = true;
      report.filesWritten += spaceReport.written.length;
      report.spaces.push(spaceReport);
    }
  } catch (error) {
    report.errors.push(syncErrorOf(error));
    if (isTokenRejected(error)) report.tokenRejected = true;
  }
}

/**
 * Whether the space's revision on the server differs from the one last pulled (one listing
 * request; true when it cannot be told, so nothing is sent on a guess). pushOnce asks before
 * sending: the working change request may be created from the new main, or the drainer find
 * it merged and create another, and queued files sent as they are would replace the remote
 * edits there without a merge.
 */
async function movedSincePull(ctx: EngineContext, space: CachedSpace): Promise<boolean> {
  try {
    const listed = await ctx.remote.listSpaces(space.organizationId);
    const remote = listed.find((candidate) => candidate.id === space.id);
    return remote === undefined || remote.revision !== space.syncedRevision;
  } catch (error) {
    // A refused token fails every request to come: the run says so (pushOnce reports it).
    if (isTokenRejected(error)) throw error;
    ctx.log('warn', 'checking the space revision before a push failed', {
      space: space.id,
      error: messageOf(error),
    });
    return true;
  }
}

/**
 * Pushes one space's local edits (see push-space.ts), leaving out files in open conflicts.
 * `drain: false` only queues them. Errors end up in the report. Needs ctx.pusher.
 */
export async function pushSpace(
  ctx: EngineContext,
  run: SyncRun,
  space: CachedSpace,
  options: { drain?: boolean; placeAgainstServer?: boolean } = {},
): Promise<SpaceSyncReport> {
  const report = emptyReport(space);
  try {
    const result = await ctx.pusher!.push(space, spaceRootOf(ctx, space), {
      ...options,
      held: heldFiles(ctx, space.id),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    report.queued = result.queued;
    report.pushed = result.pushed;
    if (result.stopped === 'offline') report.offline = true;
    if (result.stopped === 'stopped') report.stopped = true;
    if (result.stopped === 'moved') report.mainMoved = true;
    report.written.push(...result.written);
    for (const problem of result.problems) {
      reportProblem(ctx, report, problem.kind, problem.path, problem.pageId, problem.message);
    }
    await pushGitBookConfig(ctx, space, report);
    const now = nowOf(ctx);
    ctx.db.transaction(() => {
      // Each push re-evaluates the space's push problems: those not seen again are resolved.
      for (const existing of ctx.problems.list(space.id)) {
        if (PUSH_PROBLEM_KINDS.has(existing.kind)) ctx.problems.remove(existing.id);
      }
      for (const problem of report.problems) {
        // Refused changes' problems are read from the outbox (space-status.ts), not recorded.
        if (problem.kind === 'push-failed') continue;
        ctx.problems.add({ ...problem, spaceId: space.id, createdAt: now });
      }
    })();
    ctx.log('info', 'space pushed', {
      space: space.id,
      queued: result.queued,
      pushed: result.pushed,
      stopped: result.stopped,
    });
  } catch (error) {
    report.error = syncErrorOf(error);
    if (error instanceof RemoteUnavailableError) report.offline = true;
    ctx.log('error', 'space push failed', { space: space.id, error: report.error });
  }
  return report;
}
