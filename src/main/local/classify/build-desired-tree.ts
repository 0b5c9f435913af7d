import { cachedChildren } from './cached-tree';
import type { ClassifyContext } from './classify-context';
import type { DetectedMoves } from './detect-moves';
import { unownedFolderProblem, type FolderOwners } from './folder-owners';
import { isNewKey, newKey, pathOfNewKey, type Key } from './page-key';
import type { PlannedDeletions } from './plan-deletions';
import type { SummaryPlacement } from './summary-placement';

type TreeInput = ClassifyContext &
  DetectedMoves &
  PlannedDeletions &
  FolderOwners &
  SummaryPlacement;

export interface DesiredTree {
  /** Parent (null: the top level) → its children as they should be, in order. */
  desiredChildren: ReadonlyMap<string | null, readonly Key[]>;
  /** Moved pages left where they were (reported): their move is not pushed yet. */
  deferredMoves: ReadonlySet<string>;
}

/**
 * Phase 6: the tree the space should have: each surviving and new page under its parent (from
 * SUMMARY.md, else its file's folder), children in SUMMARY.md order, others where they were.
 */
export function buildDesiredTree(ctx: TreeInput): DesiredTree {
  const deferredMoves = new Set<string>();
  const fallbackParent = (id: string) => ctx.survivingAncestor(ctx.tree.nodes.get(id)!.parent);
  const desiredParent = placeSyncedPages(ctx, deferredMoves, fallbackParent);
  placeNewPages(ctx, desiredParent);
  dropNewPagesInUnpushedParents(ctx, desiredParent);
  breakCycles(desiredParent, (id) => {
    ctx.problems.push({
      path: ctx.moved.get(id)?.to.file.path ?? ctx.tree.pathOfPage.get(id) ?? '',
      reason: 'unsupported',
      pageId: id,
      message: 'a page cannot move inside its own sub-pages; it was left where it was',
    });
    deferredMoves.add(id);
    return fallbackParent(id);
  });
  return { desiredChildren: orderChildren(ctx, desiredParent), deferredMoves };
}

/** Every surviving synced page → its desired parent. */
function placeSyncedPages(
  ctx: TreeInput,
  deferredMoves: Set<string>,
  fallbackParent: (id: string) => string | null,
): Map<Key, string | null> {
  const { tree, plan, moved, stranded, survives, parentOfPath } = ctx;
  const desiredParent = new Map<Key, string | null>();
  for (const id of tree.treeOrder) {
    if (!survives(id)) continue;
    const node = tree.nodes.get(id)!;
    let parent: Key | null;
    const move = moved.get(id);
    const unownedFolder = stranded.get(id);
    if (plan?.parent.has(id)) parent = plan.parent.get(id)!;
    else if (move && unownedFolder !== undefined) {
      // Left where it is (not moved, not deleted) until its folder belongs to a page.
      ctx.problems.push(unownedFolderProblem(move.to.file.path, unownedFolder, id));
      deferredMoves.add(id);
      desiredParent.set(id, fallbackParent(id));
      continue;
    } else if (move) parent = parentOfPath(move.to.file.path);
    else if (node.parent !== null && !survives(node.parent)) {
      const path = tree.pathOfPage.get(id);
      parent = path === undefined ? fallbackParent(id) : parentOfPath(path);
    } else parent = node.parent;
    if (parent !== null && isNewKey(parent)) {
      deferredMoves.add(id);
      ctx.problems.push({
        path: move?.to.file.path ?? tree.pathOfPage.get(id) ?? '',
        reason: 'deferred',
        pageId: id,
        message: `${pathOfNewKey(parent)} is a new page: the page moves into it once it exists`,
      });
      parent = fallbackParent(id);
    }
    desiredParent.set(id, parent);
  }
  return desiredParent;
}

/** Every new page whose folder a page owns → its desired parent. */
function placeNewPages(ctx: TreeInput, desiredParent: Map<Key, string | null>): void {
  const { plan } = ctx;
  for (const page of ctx.newPages) {
    const key = newKey(page.file.path);
    const unownedFolder = plan?.parent.has(key) ? undefined : ctx.unownedFolderOf(page.file.path);
    if (unownedFolder !== undefined) {
      ctx.problems.push(unownedFolderProblem(page.file.path, unownedFolder));
      continue;
    }
    // A parent that is a new page too is inserted first, in the same push (see emission).
    desiredParent.set(
      key,
      plan?.parent.has(key) ? plan.parent.get(key)! : ctx.parentOfPath(page.file.path),
    );
  }
}

/** A new page whose new parent is not pushed (its folder no page owns, say) waits for it. */
function dropNewPagesInUnpushedParents(
  ctx: ClassifyContext,
  desiredParent: Map<Key, string | null>,
): void {
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const [key, parent] of desiredParent) {
      if (!isNewKey(key) || parent === null || !isNewKey(parent) || desiredParent.has(parent)) {
        continue;
      }
      ctx.problems.push({
        path: pathOfNewKey(key),
        reason: 'deferred',
        message: `${pathOfNewKey(key)} goes into ${pathOfNewKey(parent)}, a new page that is not pushed: it is added once that page is`,
      });
      desiredParent.delete(key);
      dropped = true;
    }
  }
}

/** Reverts pages whose desired parent lies inside themselves (the server would refuse the batch). */
function breakCycles(
  parents: Map<Key, string | null>,
  revert: (id: string) => string | null,
): void {
  for (const key of parents.keys()) {
    const seen = new Set<Key>([key]);
    for (
      let parent = parents.get(key) ?? null;
      parent !== null;
      parent = parents.get(parent) ?? null
    ) {
      if (seen.has(parent)) {
        parents.set(key, revert(key));
        break;
      }
      seen.add(parent);
    }
  }
}

/**
 * Each parent's children: those SUMMARY.md lists in its order, the others after the sibling they
 * followed, then pages joining the parent, existing ones first, each group by its file's path.
 */
function orderChildren(
  ctx: TreeInput,
  desiredParent: ReadonlyMap<Key, string | null>,
): Map<string | null, Key[]> {
  const sortPath = (key: Key): string =>
    isNewKey(key)
      ? `\uffff${pathOfNewKey(key)}`
      : (ctx.moved.get(key)?.to.file.path ?? ctx.tree.pathOfPage.get(key) ?? '');
  const byParent = new Map<string | null, Key[]>();
  for (const [key, parent] of desiredParent) {
    const list = byParent.get(parent) ?? [];
    list.push(key);
    byParent.set(parent, list);
  }
  const desiredChildren = new Map<string | null, Key[]>();
  for (const [parent, keys] of byParent) {
    const mine = new Set(keys);
    const list = (ctx.plan?.order.get(parent) ?? []).filter((key) => mine.has(key));
    const placed = new Set(list);
    keepUnlistedInPlace(cachedChildren(ctx.tree, parent), mine, list, placed);
    const rest = keys
      .filter((key) => !placed.has(key))
      .sort((a, b) => compareStrings(sortPath(a), sortPath(b)));
    for (const key of rest) {
      if (parent === null && key === newKey(ctx.readmePath)) list.unshift(key);
      else list.push(key);
    }
    desiredChildren.set(parent, list);
  }
  return desiredChildren;
}

/** Pages SUMMARY.md does not list keep their place after the sibling they followed. */
function keepUnlistedInPlace(
  cached: readonly { id: string }[],
  mine: ReadonlySet<Key>,
  list: Key[],
  placed: Set<Key>,
): void {
  const siblings = cached.map((page) => page.id);
  for (const [i, id] of siblings.entries()) {
    if (!mine.has(id) || placed.has(id)) continue;
    let at = 0;
    for (let j = i - 1; j >= 0; j -= 1) {
      const index = list.indexOf(siblings[j]!);
      if (index !== -1) {
        at = index + 1;
        break;
      }
    }
    list.splice(at, 0, id);
    placed.add(id);
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
