import type { CachedSpace } from '../cache/space-cache';
import { atomicRemove } from '../mirror/atomic-write';
import { resolveInside } from '../mirror/resolve-inside';
import { nowOf, reportProblem, spaceRootOf, type EngineContext } from './engine-context';
import { localFileState } from './local-file-state';
import { recordProblems } from './record-problems';
import { syncErrorOf } from './sync-error-of';
import { removeDirIfEmpty, removeEmptyParents, removeStaleTemps } from './sync-fs-helpers';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import { emptyReport, type SpaceSyncReport } from './sync-report';

/** Whether the space has files in the folder to clean up. */
export function hasMirror(ctx: EngineContext, space: CachedSpace): boolean {
  return space.syncedRevision !== null || ctx.index.entries(space.id).length > 0;
}

/** Cleans up a space removed remotely: unchanged files go, locally edited ones stay. */
export async function removeSpace(
  ctx: EngineContext,
  space: CachedSpace,
): Promise<SpaceSyncReport> {
  const report: SpaceSyncReport = { ...emptyReport(space), toRevision: null, removedSpace: true };
  try {
    const spaceRoot = spaceRootOf(ctx, space);
    if ((await lstatOrNull(spaceRoot)) !== null) {
      await removeStaleTemps(spaceRoot);
      const pending = ctx.index.pendingWrites(space.id);
      for (const entry of ctx.index.entries(space.id)) {
        const local = await localFileState(spaceRoot, entry.path, entry, pending.get(entry.path));
        if (local.kind === 'foreign') {
          reportProblem(
            ctx,
            report,
            'kept-deleted',
            entry.path,
            entry.pageId,
            `The space ${space.title} was deleted remotely, but ${entry.path} was edited locally: it was kept`,
          );
        } else if (local.kind === 'ours') {
          await atomicRemove(resolveInside(spaceRoot, entry.path), { root: spaceRoot });
          await removeEmptyParents(spaceRoot, entry.path);
          report.removed.push(entry.path);
        }
      }
      await removeDirIfEmpty(ctx.folder, spaceRoot);
    }
    const now = nowOf(ctx);
    ctx.db.transaction(() => {
      ctx.index.clearSpace(space.id);
      ctx.edits.clearSpace(space.id);
      ctx.content.clearSpace(space.id);
      if (report.problems.length === 0) {
        ctx.spaces.deleteSpace(space.id);
      } else {
        ctx.spaces.forgetMirror(space.id);
        recordProblems(ctx, space.id, report.problems, now);
      }
    })();
  } catch (error) {
    report.error = syncErrorOf(error);
    ctx.spaces.setError(space.id, report.error.message);
  }
  return report;
}
