import type { ClassifyContext } from './classify-context';
import type { ClassifyResult } from './classify-result';
import type { DetectedMoves } from './detect-moves';
import type { ReadPages } from './read-pages';

export interface PlannedDeletions {
  /** Pages whose file is gone and that did not move. */
  deleted: ReadonlySet<string>;
  /** Whether a cached page stays: not deleted, nor a file-less page (a link) only inside one. */
  survives(id: string): boolean;
  /** The page itself, or its nearest ancestor that survives; null for the top level. */
  survivingAncestor(id: string | null): string | null;
}

/**
 * Phase 3: the pages this pass deletes. A deletion waits (reported) while a new Markdown file
 * cannot be read: it may be the same page, moved.
 */
export function planDeletions(ctx: ClassifyContext & ReadPages & DetectedMoves): PlannedDeletions {
  const { nodes, treeOrder } = ctx.tree;
  const deleted = new Set<string>();
  for (const entry of ctx.deletedEntries) {
    if (ctx.moved.has(entry.pageId!)) continue;
    if (ctx.unreadableNew.length > 0) {
      ctx.problems.push({
        path: entry.path,
        reason: 'deferred',
        pageId: entry.pageId!,
        message: `${entry.path} was deleted, but its page is kept while ${ctx.unreadableNew[0]} cannot be read: it may be the same page, moved`,
      });
      continue;
    }
    deleted.add(entry.pageId!);
  }
  /** Pages gone with this pass: deleted files, and file-less pages (links) only inside them. */
  const dropped = new Set<string>();
  for (const id of treeOrder) {
    const node = nodes.get(id)!;
    if (deleted.has(id)) dropped.add(id);
    else if (
      node.page.type !== 'document' &&
      node.page.type !== 'group' &&
      node.parent !== null &&
      dropped.has(node.parent)
    ) {
      dropped.add(id);
    }
  }
  const survives = (id: string) => nodes.has(id) && !dropped.has(id);
  const survivingAncestor = (id: string | null): string | null => {
    let current = id;
    while (current !== null && !survives(current)) current = nodes.get(current)?.parent ?? null;
    return current;
  };
  return { deleted, survives, survivingAncestor };
}

/**
 * The guard result when more than half of the space's pages would be deleted and the user has
 * not confirmed; undefined when the pass may go on.
 */
export function massDeleteGuard(
  ctx: ClassifyContext & PlannedDeletions,
): ClassifyResult | undefined {
  const { deleted } = ctx;
  const total = [...ctx.tree.nodes.values()].filter((node) => node.page.type === 'document').length;
  if (ctx.allowMassDelete || deleted.size === 0 || deleted.size <= total / 2) return undefined;
  return {
    guard: 'mass-delete',
    count: deleted.size,
    total,
    message: `${deleted.size} of the ${total} pages would be deleted; nothing was pushed until you confirm`,
    changes: [],
    problems: ctx.problems,
    moves: [],
    summary: 'unchanged',
  };
}
