import type { PageFieldsUpdate } from '../local-content-change';
import type { ClassifyContext } from './classify-context';
import type { PageMove, PlannedChangeReason } from './classify-result';
import type { DetectedMoves } from './detect-moves';
import type { DesiredTree } from './build-desired-tree';
import { fieldChanges, slugChange } from './page-fields';
import type { ReadPages, LocalPage } from './read-pages';
import type { SummaryPlacement } from './summary-placement';

/** What an update_page of an existing page sets besides its place. */
export type PageUpdate = PageFieldsUpdate & { document?: { markdown: string } };

export interface PageUpdates {
  /** Page id → its content and field changes. */
  updates: ReadonlyMap<string, PageUpdate>;
  reasons: ReadonlyMap<string, PlannedChangeReason>;
  /** The moves made (deferred ones left out). */
  moves: PageMove[];
}

/**
 * Phase 7: the content and field updates of existing pages: edited files, moved files (their
 * new slug, and their content when it changed too), and titles an edited SUMMARY.md gives.
 */
export function planPageUpdates(
  ctx: ClassifyContext & ReadPages & DetectedMoves & SummaryPlacement & DesiredTree,
): PageUpdates {
  const { nodes } = ctx.tree;
  const updates = new Map<string, PageUpdate>();
  const reasons = new Map<string, PlannedChangeReason>();
  const contentUpdate = (id: string, local: LocalPage): PageUpdate => {
    const cached = nodes.get(id)!.page;
    const update: PageUpdate = {
      document: { markdown: ctx.markdownForPush(local.text, local.file.path) },
      ...fieldChanges(local, cached),
    };
    if (local.title !== undefined && local.title !== '' && local.title !== cached.title) {
      update.title = local.title;
    }
    return update;
  };
  for (const [id, local] of ctx.edited) {
    updates.set(id, contentUpdate(id, local));
    reasons.set(id, 'edit');
  }
  const moves: PageMove[] = [];
  for (const [id, { from, to }] of ctx.moved) {
    if (ctx.deferredMoves.has(id)) continue;
    moves.push({ pageId: id, from: from.path, to: to.file.path });
    const update = to.file.hash === from.contentHash ? {} : contentUpdate(id, to);
    const slug = slugChange(from.path, to.file.path);
    if (slug !== undefined && slug !== nodes.get(id)!.page.slug) update.slug = slug;
    if (Object.keys(update).length > 0) {
      updates.set(id, update);
      reasons.set(id, 'move');
    }
  }
  for (const [key, title] of ctx.plan?.titles ?? []) {
    const node = nodes.get(key);
    if (!node || updates.has(key) || title === '' || title === node.page.title) continue;
    updates.set(key, { title });
    reasons.set(key, 'retitle');
  }
  return { updates, reasons, moves };
}
