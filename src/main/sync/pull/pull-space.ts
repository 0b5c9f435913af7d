import type { CachedSpace } from '../../cache/space-cache';
import { PUSH_PROBLEM_KINDS } from '../../cache/sync-problems';
import { PullConflicts } from '../../conflicts/pull-conflicts';
import { ensureDir } from '../../mirror/atomic-write';
import type { RemotePage, RemoteRevision } from '../../sync-ports';
import {
  nowOf,
  reportProblem,
  spaceRootOf,
  summaryNameKey,
  type EngineContext,
} from '../engine-context';
import { adoptGitBookLayout } from '../adopt-gitbook-layout';
import { readmeNameKey } from '../readme-name-key';
import { fetchGitBookConfig, pullGitBookConfig } from '../gitbook-config-file';
import { recordProblems } from '../record-problems';
import { spaceLayout } from '../space-layout';
import { removeStaleTemps } from '../sync-fs-helpers';
import { lstatOrNull } from '../../../common/fs/lstat-or-null';
import type { SpaceSyncReport } from '../sync-report';
import type { SyncRun } from '../sync-run';
import { applyPullPlan } from './apply-pull-plan';
import { followPlacedPages } from './follow-placed-pages';
import { gatherPullInputs } from './gather-pull-inputs';
import { planPull, type PullPlan } from './pull-plan';
import { pulledWrittenTexts } from './pulled-written-texts';
import { layoutTexts, pageTitles } from './revision-texts';

/**
 * Mirrors one space at its listed remote revision into its folder, in Git Sync's layout:
 * gathers the local file states, plans (planPull), applies the plan, then records everything in
 * one transaction. Returns whether the pull left something to push (a merged file, a page to
 * re-create). Throws on failure (SyncStopped when the run's signal aborted).
 */
export async function pullSpace(
  ctx: EngineContext,
  run: SyncRun,
  space: CachedSpace,
  report: SpaceSyncReport,
  /** The revision's fetch, when the caller started it ahead (see RevisionPrefetch). */
  prefetched?: Promise<RemoteRevision>,
): Promise<boolean> {
  // Files this run's push rewrote (read-back) are pushed edits, not pulled content.
  const pushWritten = new Set(report.written);
  const revisionId = space.remoteRevision!;
  ctx.onProgress({ phase: 'fetching', space: space.id, done: 0, total: 1 });
  const revision = await fetchRevision(ctx, space.id, revisionId, prefetched);
  ctx.onProgress({ phase: 'fetching', space: space.id, done: 1, total: 1 });
  // Read first: its root decides where a fresh mirror's docs go.
  const gitbookConfig = await fetchGitBookConfig(ctx, space);
  const rootProblem = await adoptGitBookLayout(ctx, space, gitbookConfig);
  const spaceRoot = spaceRootOf(ctx, space);
  const folderExisted = (await lstatOrNull(spaceRoot)) !== null;
  // A folder mirrored afresh has no written links to keep: its links are Git Sync's.
  const writtenText = folderExisted
    ? await pulledWrittenTexts(ctx, space.id, spaceRoot, revision)
    : undefined;
  const summaryPath = ctx.state.get(summaryNameKey(space.id));
  const readmePath = ctx.state.get(readmeNameKey(space.id));
  const layout = spaceLayout(revision, {
    ...(writtenText ? { writtenText } : {}),
    ...(summaryPath ? { summaryPath } : {}),
    ...(readmePath ? { readmePath } : {}),
  });
  await ensureDir(spaceRoot, { root: ctx.folder });
  await removeStaleTemps(spaceRoot);
  if (folderExisted) await followPlacedPages(ctx, space.id, spaceRoot, layout);

  const gathered = await gatherPullInputs(ctx, space, spaceRoot, {
    layout,
    revision,
    folderExisted,
  });
  const plan = planPull(gathered.inputs);
  const { localEdits, indexByPath, fileState } = gathered;

  // Both-changed files: merged, or recorded as conflicts (see pull-conflicts.ts).
  let rendered: Map<string, string> | undefined;
  const renderedBase = () =>
    (rendered ??= layoutTexts(ctx.content.loadRevision(space.id), readmePath));
  const titles = pageTitles(revision.pages);
  const conflicts = new PullConflicts({
    spaceId: space.id,
    spaceRoot,
    store: ctx.conflictStore,
    texts: ctx.texts,
    edits: ctx.edits,
    outbox: ctx.outbox,
    localEdits,
    baseText: (hash) => ctx.texts.get(hash) ?? renderedBase().get(hash),
    title: (pageId) =>
      (pageId === null ? undefined : titles.get(pageId)) ??
      pageTitles(ctx.content.loadRevision(space.id)?.pages ?? []).get(pageId ?? '') ??
      '',
    report: (kind, problemPath, pageId, message) =>
      reportProblem(ctx, report, kind, problemPath, pageId, message),
  });
  await applyPullPlan(
    { ctx, run, space, spaceRoot, report, conflicts, localEdits, indexByPath, fileState },
    plan,
  );

  await pullGitBookConfig(ctx, space, report, gitbookConfig, rootProblem);
  commitPull(ctx, {
    space,
    revision,
    revisionId,
    plan,
    report,
    conflicts,
    pushWritten,
    renderedText: (hash) => rendered?.get(hash),
  });
  report.toRevision = revisionId;
  return conflicts.needsPush;
}

/** Everything is on disk: records it in one transaction. */
function commitPull(
  ctx: EngineContext,
  pulled: {
    space: CachedSpace;
    revision: RemoteRevision;
    revisionId: string;
    plan: PullPlan;
    report: SpaceSyncReport;
    conflicts: PullConflicts;
    pushWritten: ReadonlySet<string>;
    /** A text of the cached revision, if it was rendered (for a merge base). */
    renderedText: (hash: string) => string | undefined;
  },
): void {
  const { space, plan, report, conflicts } = pulled;
  const now = nowOf(ctx);
  ctx.db.transaction(() => {
    ctx.index.replaceSpace(space.id, [...plan.index.values()]);
    ctx.content.replaceSpaceContent(space.id, pulled.revision, plan.fileHashes, now);
    ctx.spaces.markSynced(space.id, pulled.revisionId, now);
    ctx.index.clearPending(space.id);
    moveEditRows(ctx, space.id, plan.renames);
    ctx.edits.settle(
      space.id,
      plan.index,
      new Set(
        report.written.filter(
          // A merged file is a local edit still to push, not pulled content.
          (written) => !pulled.pushWritten.has(written) && !conflicts.merged.includes(written),
        ),
      ),
    );
    // Conflicts are listed by the conflict store until resolved, not as sync problems.
    const conflictPaths = conflicts.conflictPaths;
    recordProblems(
      ctx,
      space.id,
      report.problems.filter(
        (problem) =>
          !PUSH_PROBLEM_KINDS.has(problem.kind) &&
          !(problem.path !== null && conflictPaths.has(problem.path)),
      ),
      now,
    );
    conflicts.commit(now);
    ctx.texts.putAll(
      [...plan.index.values()].flatMap((entry) => {
        const text =
          plan.syncedTexts.get(entry.contentHash) ?? pulled.renderedText(entry.contentHash);
        return text === undefined ? [] : [[entry.contentHash, text] as const];
      }),
    );
    ctx.texts.collect();
  })();
}

/**
 * An edited file the pull moved with its page keeps its edit row: left at the old path, the
 * next push would take the page's file for deleted there (and delete the page).
 */
function moveEditRows(
  ctx: EngineContext,
  spaceId: string,
  renames: readonly { from: string; to: string }[],
): void {
  if (renames.length === 0) return;
  const byPath = new Map(ctx.edits.list(spaceId).map((edit) => [edit.path, edit]));
  for (const move of renames) {
    const edit = byPath.get(move.from);
    if (edit === undefined) continue;
    ctx.edits.remove(spaceId, move.from);
    ctx.edits.put(spaceId, { ...edit, path: move.to });
  }
}

/** The revision with every document page's Markdown (cached bodies fill in unchanged pages). */
async function fetchRevision(
  ctx: EngineContext,
  spaceId: string,
  revisionId: string,
  prefetched: Promise<RemoteRevision> | undefined,
): Promise<RemoteRevision> {
  const revision = await (prefetched ??
    ctx.remote.getRevision(spaceId, revisionId, ctx.content.knownPages(spaceId)));
  const fill = (pages: RemotePage[]) => {
    for (const page of pages) {
      if (page.type === 'document' && page.markdown === undefined) {
        const cached = ctx.content.pageMarkdown(spaceId, page.id);
        if (cached === undefined) {
          throw new Error(`Page ${page.id} came without its Markdown and is not cached`);
        }
        page.markdown = cached;
      }
      fill(page.pages);
    }
  };
  fill(revision.pages);
  return revision;
}
