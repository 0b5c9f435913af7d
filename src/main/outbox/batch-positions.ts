import type { RemotePage } from '../sync/sync-ports';
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
  private readonly kids = new Map<string | null, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(pages: readonly RemotePage[]) {
    const visit = (list: readonly RemotePage[], parent: string | null) => {
      this.kids.set(
        parent,
        list.map((page) => page.id),
      );
      for (const page of list) {
        this.parents.set(page.id, parent);
        visit(page.pages, page.id);
      }
    };
    visit(pages, null);
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
        if (!this.parents.has(change.page)) return change;
        const parent = change.into === undefined ? this.parents.get(change.page)! : change.into;
        this.remove(change.page);
        const at = this.place(change.page, parent, change.at);
        return change.at === undefined || at === change.at ? change : { ...change, at };
      }
      case 'delete_page':
        this.removeTree(change.page);
        return change;
      case 'insert_files':
        return change;
    }
  }

  /** An acknowledged insert: its page is known by the id the server gave it from now on. */
  created(ref: string, pageId: string): void {
    if (!this.parents.has(ref)) return;
    const parent = this.parents.get(ref)!;
    const siblings = this.children(parent);
    siblings[siblings.indexOf(ref)] = pageId;
    this.parents.delete(ref);
    this.parents.set(pageId, parent);
    const below = this.kids.get(ref);
    if (below !== undefined) {
      this.kids.delete(ref);
      this.kids.set(pageId, below);
      for (const child of below) this.parents.set(child, pageId);
    }
  }

  /** Inserts `key` under `parent` at `at` (at most the end; the end when omitted). */
  private place(key: string, parent: string | null, at: number | undefined): number {
    const siblings = this.children(parent);
    const index = Math.min(at ?? siblings.length, siblings.length);
    siblings.splice(index, 0, key);
    this.parents.set(key, parent);
    return index;
  }

  private children(parent: string | null): string[] {
    let list = this.kids.get(parent);
    if (list === undefined) {
      list = [];
      this.kids.set(parent, list);
    }
    return list;
  }

  private remove(key: string): void {
    const siblings = this.children(this.parents.get(key) ?? null);
    const index = siblings.indexOf(key);
    if (index !== -1) siblings.splice(index, 1);
    this.parents.delete(key);
  }

  private removeTree(key: string): void {
    if (!this.parents.has(key)) return;
    for (const child of [...this.children(key)]) this.removeTree(child);
    this.kids.delete(key);
    this.remove(key);
  }
}
