import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { CachedSpace } from '../../cache/space-cache';
import type { PullConflicts } from '../../conflicts/pull-conflicts';
import {
  atomicRemove,
  atomicWriteFile,
  ensureDir,
  fsyncDirectory,
} from '../../mirror/atomic-write';
import { assertNoSymlinkOnPath, resolveInside } from '../../mirror/resolve-inside';
import { StagedFile } from '../../mirror/staged-file';
import { reportProblem, type EngineContext } from '../engine-context';
import type { LocalState } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';
import { removeEmptyParents } from '../sync-fs-helpers';
import type { SpaceSyncReport } from '../sync-report';
import type { SyncRun } from '../sync-run';
import { indexEntry, indexFields } from './pull-plan-entries';
import type { PlannedWrite, PullDecision, PullPlan } from './pull-plan';
import { pullAssets } from './pull-assets';
import { unsyncedFileOutcome } from './unsynced-file-outcome';

/** Page files written at once (see writeTexts). */
const TEXT_WRITE_CONCURRENCY = 8;

/** What applying a pull plan needs besides the plan. */
export interface PullApplication {
  ctx: EngineContext;
  run: SyncRun;
  space: CachedSpace;
  spaceRoot: string;
  report: SpaceSyncReport;
  conflicts: PullConflicts;
  localEdits: readonly LocalEdit[];
  /** The file index before the pull, by path. */
  indexByPath: ReadonlyMap<string, FileIndexEntry>;
  /** The file's state now (files may change while the pull runs). */
  fileState(relativePath: string): Promise<LocalState>;
}

/**
 * Carries out a pull plan: hands its decisions to PullConflicts and the report, journals and
 * writes the texts, downloads and writes the assets (several at once: pull-assets.ts), writes the merges, renames and
 * removes. Completes `plan.index` and `plan.fileHashes` with what was written; the caller records
 * them (commitPull). Every write is atomic, and journaled before its first byte lands, so a sync
 * killed midway recognises its own work.
 */
export async function applyPullPlan(app: PullApplication, plan: PullPlan): Promise<void> {
  const { ctx, space, spaceRoot, report, conflicts } = app;
  for (const decision of plan.decisions) await applyDecision(app, decision);

  const total = plan.writes.length + plan.removals.length + plan.renames.length;
  let done = 0;
  const tick = () => ctx.onProgress({ phase: 'writing', space: space.id, done: ++done, total });
  ctx.onProgress({ phase: 'writing', space: space.id, done, total });

  // Journal the writes before the first byte lands, so a crash cannot make them look local.
  const texts = plan.writes.filter((write) => write.data !== undefined);
  ctx.index.addPendingWrites(
    space.id,
    texts.map((write) => ({ path: write.entry.path, contentHash: write.hash! })),
  );
  await writeTexts(app, plan, texts, tick);
  // Assets several at a time, each streamed to a temp file, journaled, then renamed into place.
  const assets = plan.writes.filter((w) => w.data === undefined).map((w) => w.entry);
  await pullAssets(
    app,
    plan,
    assets,
    (entry, data, hash) => writeOne(app, plan, entry, data, hash),
    tick,
  );
  const merges = await conflicts.writeMerges(
    async (relativePath) => {
      const local = await app.fileState(relativePath);
      return local.kind === 'missing' ? undefined : local.hash;
    },
    (relativePath) => removeEmptyParents(spaceRoot, relativePath),
  );
  for (const merged of merges.index) plan.index.set(merged.path, merged);
  for (const removedPath of merges.removed) plan.index.delete(removedPath);
  report.removed.push(...merges.removed);
  report.written.push(...conflicts.merged);
  if (conflicts.merged.length > 0) report.merged = [...conflicts.merged];
  for (const move of plan.renames) {
    await moveFile(spaceRoot, move.from, move.to);
    tick();
  }
  for (const removal of plan.removals) {
    await atomicRemove(resolveInside(spaceRoot, removal), { root: spaceRoot });
    await removeEmptyParents(spaceRoot, removal);
    report.removed.push(removal);
    tick();
  }
}

/**
 * Writes the texts several at a time: each write fsyncs its file and folder, and concurrent
 * fsyncs share the file system's journal commits. The report lists them in plan order whatever
 * order they finished in.
 */
async function writeTexts(
  app: PullApplication,
  plan: PullPlan,
  texts: readonly PlannedWrite[],
  tick: () => void,
): Promise<void> {
  const written = app.report.written;
  const before = written.length;
  const queue = new PQueue({ concurrency: TEXT_WRITE_CONCURRENCY });
  // After a failure nothing new starts, and the writes under way finish before it is thrown:
  // no write of this pull lands after the space is reported failed.
  let failure: { error: unknown } | undefined;
  await Promise.all(
    texts.map((write) =>
      queue.add(async () => {
        if (failure !== undefined) return;
        try {
          await writeOne(app, plan, write.entry, write.data!, write.hash!);
          tick();
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure !== undefined) throw failure.error;
  const order = new Map(texts.map((write, i) => [write.entry.path, i]));
  const added = written.splice(before);
  added.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  written.push(...added);
}

/** Hands one decision to PullConflicts (which reports its conflicts) or to the report. */
async function applyDecision(app: PullApplication, decision: PullDecision): Promise<void> {
  const { conflicts } = app;
  switch (decision.kind) {
    case 'merge': {
      const { entry, base, localPath, localHash, writePath } = decision;
      const options = writePath !== undefined ? { writePath } : {};
      await conflicts.planMerge(entry, base, localPath, localHash, options);
      return;
    }
    case 'unmerged':
      conflicts.recordUnmerged(
        decision.entry,
        decision.localPath,
        decision.localHash,
        decision.message,
      );
      return;
    case 'asset-conflict':
      conflicts.recordAsset(decision.entry, decision.localHash);
      return;
    case 'deleted-locally':
      conflicts.deletedLocally(decision.entry);
      return;
    case 'deleted-remotely':
      conflicts.deletedRemotely(decision.entry, decision.localHash);
      return;
    case 'problem': {
      const { kind, path: problemPath, pageId, message } = decision.problem;
      reportProblem(app.ctx, app.report, kind, problemPath, pageId, message);
      return;
    }
  }
}

/** Writes one planned file, unless the file at its path changed since the plan was made. */
async function writeOne(
  app: PullApplication,
  plan: PullPlan,
  entry: LayoutEntry,
  data: string | Uint8Array | StagedFile,
  hash: string,
): Promise<void> {
  const { spaceRoot } = app;
  const local = await app.fileState(entry.path);
  if (local.kind !== 'missing' && local.hash === hash) {
    // Already there (a downloaded asset whose bytes did not change, say).
    plan.index.set(entry.path, indexEntry(entry, hash, local.stats));
    if (entry.fileId !== undefined) plan.fileHashes.set(entry.fileId, hash);
    return;
  }
  if (local.kind === 'foreign') {
    // Edited since the plan was made (or an asset found to differ once downloaded).
    const decision = changedMeanwhile(app, plan, entry, local.hash);
    if (decision !== undefined) await applyDecision(app, decision);
    return;
  }
  const absolute = resolveInside(spaceRoot, entry.path);
  await ensureDir(path.dirname(absolute), { root: spaceRoot });
  if (data instanceof StagedFile) await data.commit();
  else await atomicWriteFile(absolute, data, { root: spaceRoot });
  plan.index.set(entry.path, indexEntry(entry, hash, await stat(absolute)));
  if (entry.fileId !== undefined) plan.fileHashes.set(entry.fileId, hash);
  app.report.written.push(entry.path);
}

/**
 * A planned write whose path holds a file the engine did not write: indexed, and what to record
 * about it (nothing for a page this device created, whose base the remote version becomes).
 */
function changedMeanwhile(
  app: PullApplication,
  plan: PullPlan,
  entry: LayoutEntry,
  localHash: string,
): PullDecision | undefined {
  const base = app.indexByPath.get(entry.path);
  if (base === undefined) {
    const outcome = unsyncedFileOutcome(entry, localHash, app.localEdits);
    if ('decision' in outcome) return outcome.decision;
    plan.index.set(entry.path, outcome.index);
    return undefined;
  }
  plan.index.set(entry.path, { ...base, ...indexFields(entry) });
  if (entry.kind === 'asset' && localHash !== '') {
    return { kind: 'asset-conflict', entry, localHash };
  }
  return {
    kind: 'unmerged',
    entry,
    localPath: entry.path,
    localHash,
    message: `${entry.path} was edited locally while the sync ran and changed remotely; the local file was kept and the remote version not written`,
  };
}

/** Moves a locally edited file with its page (renamed remotely). */
async function moveFile(spaceRoot: string, fromPath: string, toPath: string): Promise<void> {
  const from = resolveInside(spaceRoot, fromPath);
  const to = resolveInside(spaceRoot, toPath);
  await ensureDir(path.dirname(to), { root: spaceRoot });
  await assertNoSymlinkOnPath(spaceRoot, from);
  await assertNoSymlinkOnPath(spaceRoot, to);
  await rename(from, to);
  await fsyncDirectory(path.dirname(to));
  await fsyncDirectory(path.dirname(from));
  await removeEmptyParents(spaceRoot, fromPath);
}
