import { badRequest, forbidden } from '../http/api-error';
import { ChangeRequestMerger } from '../resources/change-requests/change-request-merge';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../resources/change-requests/change-request-queries';
import type { ServerContext } from '../server-context';
import { CpuJobError } from '../workers/cpu-pool';
import { addPageFields } from './add-page-fields';
import type { ArchiveCollector } from './archive-collector';
import type { ImportPlan, PlannedPage } from './plan-import-tree';
import { storeImport } from './store-import';

/** A collected layout: Markdown and YAML in memory, assets spooled to files. */
export type CollectedLayout = Pick<ArchiveCollector, 'texts' | 'assets'>;

export interface ImportTarget {
  spaceId: string;
  userId: string;
  subject: string;
  /** Merge the change request at once (else it is left open for review). */
  merge: boolean;
}

export interface ImportResult {
  row: ChangeRequestRow;
  revision: string;
  merged: boolean;
  plan: Exclude<ImportPlan, { refused: unknown }>;
}

/**
 * The one import pipeline of a collected Git Sync layout (an uploaded archive or a fetched
 * repository): plan it on the CPU pool, store it as one revision of a new change request, and
 * merge that when asked. A refused layout is a 400 naming the file; a locked space a 403.
 */
export async function importCollected(
  ctx: ServerContext,
  collector: CollectedLayout,
  target: ImportTarget,
): Promise<ImportResult> {
  const plan = await planOf(ctx, collector);
  if ('refused' in plan) throw badRequest(`body: ${plan.refused.path} ${plan.refused.message}`);
  const stored = await storeImport(ctx, {
    spaceId: target.spaceId,
    userId: target.userId,
    subject: target.subject,
    pages: plan.pages,
    files: plan.files,
    spooled: collector.assets,
    // The layout's .gitbook.yaml goes with its change request, the space's once merged.
    ...(plan.configText === undefined
      ? {}
      : { gitbookConfig: { text: plan.configText, config: plan.config } }),
  });
  let { row, revision } = stored;
  let merged = false;
  if (target.merge) {
    const queries = new ChangeRequestQueries(ctx.db);
    const merger = new ChangeRequestMerger(ctx);
    const bodies = await merger.prepare(row, 'merge');
    const now = ctx.clock.now().toISOString();
    const outcome = ctx.db.transaction(() => {
      if (queries.spaceEditMode(target.spaceId) === 'locked') {
        throw forbidden(`Space ${target.spaceId} is locked: the import is left open for review`);
      }
      return merger.merge(queries.find(target.spaceId, row.id)!, target.userId, now, bodies);
    })();
    merged = outcome.result === 'merge';
    if (merged) revision = outcome.revision;
    row = queries.find(target.spaceId, row.id)!;
  }
  return { row, revision, merged, plan };
}

async function planOf(ctx: ServerContext, collector: CollectedLayout): Promise<ImportPlan> {
  const texts = [...collector.texts].map(([path, bytes]) => ({ path, bytes }));
  try {
    const plan = await ctx.cpu.run('gitsync-import-plan', {
      texts,
      assets: [...collector.assets.keys()],
    });
    if (!('refused' in plan)) await addPageFields(ctx.cpu, plan.pages, plan.problems);
    return plan;
  } catch (error) {
    throw error instanceof CpuJobError ? error.toApiError('The import') : error;
  }
}

/** Pages of a plan at every depth. */
export function countPages(pages: readonly PlannedPage[]): number {
  return pages.reduce((sum, page) => sum + 1 + countPages(page.pages), 0);
}
