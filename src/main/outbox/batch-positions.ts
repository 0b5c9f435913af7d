import type { RemotePage } from '../sync-ports';
import { PageTreeIndex } from '../mirror/page-tree-index';
import type { ContentChange } from './outbox-remote';

/**
 * The working change request's page tree as the batches sent to it leave it, so that every `at`
 * is fitted to the siblings the server will count when it applies the change.
 *
 * A change's position was computed when it was queued, against the tree the engine knew then. By
 * the time it is sent, that tree may have moved on: an earlier change refused (its page is not
 * there), a page merged on main, watch events queued in another order. The server refuses an `at`
 * past the end of the siblings (`must be at most N here`) and applies a batch atomically, so one
 * such position would refuse every change sent with it. An `at` past the end is therefore sent
 * as the end: the page goes last among its siblings, which is where a position counted against a
 * longer list meant it to be.
 */
export class BatchPositions {
  private readonly tree: PageTreeIndex;

  constructor(pages: readonly RemotePage[]) {
    this.tree = new PageTreeIndex(pages);
  }

  /**
   * The change with its `at` fitted to the tree as the changes fitted before it leave it; the
   * tree then takes the change on. Inserted pages are known by their `ref` until `created`.
   */
  fit(change: ContentChange): ContentChange {
    switch (change.operation) {
      case 'insert_page': {
        const parent = change.into ?? null;
        const at = this.place(change.ref ?? '', parent, change.at);
        return change.at === undefined || at === change.at ? change : { ...change, at };
      }
      case 'update_page': {
        if (change.into === undefined && change.at === undefined) return change;
        // A page this tree does not know (not in the change request): left as it was computed.
        if (!this.tree.has(change.page)) return change;
        const parent = change.into === undefined ? this.tree.parentOf(change.page) : change.into;
        this.tree.remove(change.page);
        const at = this.place(change.page, parent, change.at);
        return change.at === undefined || at === change.at ? change : { ...change, at };
      }
      case 'delete_page':
        this.tree.removeTree(change.page);
        return change;
      case 'insert_files':
        return change;
    }
  }

  /** An acknowledged insert: its page is known by the id the server gave it from now on. */
  created(ref: string, pageId: string): void {
    this.tree.rename(ref, pageId);
  }

  /** Inserts `key` under `parent` at `at` (at most the end; the end when omitted). */
  private place(key: string, parent: string | null, at: number | undefined): number {
    return this.tree.insertAt(key, parent, at ?? Infinity);
  }
}
