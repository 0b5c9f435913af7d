import { PageTreeIndex } from '../../mirror/page-tree-index';
import type { InsertPageChange, UpdatePageChange } from '../local-content-change';
import { assetChanges } from './asset-changes';
import type { DesiredTree } from './build-desired-tree';
import type { ClassifyContext } from './classify-context';
import type { PlannedChange } from './classify-result';
import type { DetectedMoves } from './detect-moves';
import { newPageFields } from './page-fields';
import { isNewKey, newKey, type Key } from './page-key';
import type { PlannedDeletions } from './plan-deletions';
import type { PageUpdate, PageUpdates } from './plan-page-updates';
import type { SummaryPlacement } from './summary-placement';

type EmitInput = ClassifyContext &
  DetectedMoves &
  PlannedDeletions &
  SummaryPlacement &
  DesiredTree &
  PageUpdates;

/**
 * Phase 8: the changes, in the order they must be applied: uploads; deletions that free slugs;
 * inserts and moves, parents top-down, so that the tree becomes the desired one; the remaining
 * deletions; then content and field updates.
 */
export function emitChanges(ctx: EmitInput): PlannedChange[] {
  const emitter = new ChangeEmitter(ctx);
  // Deleted pages with nothing to keep below them go first, so their slugs are free for moves.
  emitter.emitDeletes({ onlyEmpty: true });
  emitter.placeTree();
  emitter.emitDeletes({ onlyEmpty: false });
  emitter.emitUpdates();
  return emitter.changes;
}

class ChangeEmitter {
  readonly changes: PlannedChange[];
  private readonly ctx: EmitInput;
  /** The server's tree as the changes emitted so far leave it. */
  private readonly sim: SimulatedTree;
  /** Updates not yet sent with a move. */
  private readonly pending: Map<string, PageUpdate>;
  /** New pages' refs: a new page inside another goes `into` its insert's ref. */
  private readonly refOfNew = new Map<Key, string>();
  private refs = 0;

  constructor(ctx: EmitInput) {
    this.ctx = ctx;
    this.changes = assetChanges(ctx);
    this.sim = new SimulatedTree(ctx.tree.pages);
    this.pending = new Map(ctx.updates);
  }

  /** A delete_page for each deleted page not inside another (with onlyEmpty, if nothing stays below). */
  emitDeletes({ onlyEmpty }: { onlyEmpty: boolean }): void {
    const { tree, deleted } = this.ctx;
    const topmost = tree.treeOrder.filter(
      (id) => deleted.has(id) && this.sim.has(id) && !this.sim.hasAncestorIn(id, deleted),
    );
    for (const id of topmost) {
      if (onlyEmpty && this.keepsBelow(id)) continue;
      const path = tree.pathOfPage.get(id);
      this.changes.push({
        change: { operation: 'delete_page', page: id },
        reason: 'delete',
        pageId: id,
        ...(path !== undefined ? { path } : {}),
      });
      this.sim.remove(id);
    }
  }

  /** Walks the desired tree top-down, so every page is placed before its own children are. */
  placeTree(): void {
    const queue: (string | null)[] = [null];
    for (let next = 0; next < queue.length; next += 1) {
      const parent = queue[next]!;
      const desired = this.ctx.desiredChildren.get(parent) ?? [];
      const current = this.sim.children(parent);
      const stable = longestInOrder(desired, (key) =>
        isNewKey(key) || this.sim.parentOf(key) !== parent ? -1 : current.indexOf(key),
      );
      for (const [i, key] of desired.entries()) {
        queue.push(key);
        if (stable.has(key)) continue;
        const predecessor = i === 0 ? undefined : desired[i - 1];
        if (isNewKey(key)) this.insertPage(key, parent, predecessor);
        else this.movePage(key, parent, predecessor);
      }
    }
  }

  /** The updates no move carried, in tree order. */
  emitUpdates(): void {
    for (const id of this.ctx.tree.treeOrder) {
      const update = this.pending.get(id);
      if (update === undefined) continue;
      const path = this.pageFilePath(id);
      this.changes.push({
        change: { operation: 'update_page', page: id, ...update },
        reason: this.ctx.reasons.get(id) ?? 'edit',
        pageId: id,
        ...(path !== undefined ? { path } : {}),
      });
    }
  }

  private insertPage(key: Key, parent: string | null, predecessor: Key | undefined): void {
    const at = this.sim.insert(key, parent, predecessor);
    const local = this.ctx.newPages.find((page) => newKey(page.file.path) === key)!;
    const ref = `quire-new-page-${(this.refs += 1)}`;
    this.refOfNew.set(key, ref);
    const intoRef = parent === null ? undefined : this.refOfNew.get(parent);
    const change: InsertPageChange = {
      operation: 'insert_page',
      ...(parent !== null ? { into: intoRef ?? parent } : {}),
      at,
      ref,
      ...newPageFields(local, this.ctx.plan?.titles.get(key)),
      document: { markdown: this.ctx.markdownForPush(local.text, local.file.path) },
    };
    this.changes.push({
      change,
      reason: 'new-page',
      path: local.file.path,
      ref,
      ...(intoRef !== undefined ? { intoRef } : {}),
    });
  }

  /** Moves an existing page after `predecessor`, carrying its pending update along. */
  private movePage(key: Key, parent: string | null, predecessor: Key | undefined): void {
    const from = this.sim.parentOf(key);
    const before = this.sim.children(from).indexOf(key);
    this.sim.remove(key);
    const at = this.sim.insert(key, parent, predecessor);
    if (from === parent && at === before) return;
    const change: UpdatePageChange = {
      operation: 'update_page',
      page: key,
      ...(this.pending.get(key) ?? {}),
      ...(from !== parent ? { into: parent } : {}),
      at,
    };
    this.pending.delete(key);
    const path = this.pageFilePath(key);
    const { moved, deferredMoves } = this.ctx;
    this.changes.push({
      change,
      reason: moved.has(key) && !deferredMoves.has(key) ? 'move' : 'reorder',
      pageId: key,
      ...(path !== undefined ? { path } : {}),
    });
  }

  private keepsBelow(id: string): boolean {
    return this.ctx.tree.nodes
      .get(id)!
      .page.pages.some((child) => this.ctx.survives(child.id) || this.keepsBelow(child.id));
  }

  private pageFilePath(id: string): string | undefined {
    return this.ctx.moved.get(id)?.to.file.path ?? this.ctx.tree.pathOfPage.get(id);
  }
}

/**
 * The server's page tree as the changes emitted so far leave it, so that every `at` is computed
 * exactly as the server will apply it (take the page out, then insert it at `at`).
 */
class SimulatedTree extends PageTreeIndex {
  hasAncestorIn(key: Key, set: ReadonlySet<string>): boolean {
    for (let parent = this.parentOf(key); parent !== null; parent = this.parentOf(parent)) {
      if (set.has(parent)) return true;
    }
    return false;
  }

  /** Inserts right after `predecessor` (first when none); returns the index. */
  insert(key: Key, parent: string | null, predecessor: Key | undefined): number {
    const at = predecessor === undefined ? 0 : this.children(parent).indexOf(predecessor) + 1;
    return this.insertAt(key, parent, at);
  }
}

/**
 * The keys to leave where they are: the longest run of `keys` already in order among the current
 * siblings (`position` is the current index, -1 when not among them). Everything else moves.
 */
function longestInOrder(keys: readonly Key[], position: (key: Key) => number): Set<Key> {
  const items = keys
    .map((key) => ({ key, position: position(key) }))
    .filter((item) => item.position >= 0);
  // Patience sorting: tails[k] is the index (in items) of the smallest tail of a run of length k+1.
  const tails: number[] = [];
  const previous: number[] = new Array<number>(items.length).fill(-1);
  for (const [i, item] of items.entries()) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (items[tails[mid]!]!.position < item.position) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  }
  const stable = new Set<Key>();
  for (let i = tails.length === 0 ? -1 : tails[tails.length - 1]!; i !== -1; i = previous[i]!) {
    stable.add(items[i]!.key);
  }
  return stable;
}
