/**
 * A page tree as two maps, parent → ordered child ids and id → parent, that can be edited the
 * way the server applies content changes (take a page out, put it in at a position). The push
 * uses one to compute positions when it plans changes and one to fit them when it sends them.
 */
/** What a page tree is made of, for the index: cached, remote and mirrored pages all fit. */
export interface PageNode {
  id: string;
  pages: readonly PageNode[];
}

export class PageTreeIndex {
  private readonly kids = new Map<string | null, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(pages: readonly PageNode[]) {
    const visit = (list: readonly PageNode[], parent: string | null) => {
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

  has(key: string): boolean {
    return this.parents.has(key);
  }

  /** The children of `parent` (the top level for null), a live list: edits go through here. */
  children(parent: string | null): string[] {
    let list = this.kids.get(parent);
    if (list === undefined) {
      list = [];
      this.kids.set(parent, list);
    }
    return list;
  }

  parentOf(key: string): string | null {
    return this.parents.get(key) ?? null;
  }

  /** Takes `key` out of its siblings (its own children stay listed under it). */
  remove(key: string): void {
    const siblings = this.children(this.parentOf(key));
    const index = siblings.indexOf(key);
    if (index !== -1) siblings.splice(index, 1);
    this.parents.delete(key);
  }

  /** Puts `key` under `parent` at `index` (clamped to the end); returns the index used. */
  insertAt(key: string, parent: string | null, index: number): number {
    const siblings = this.children(parent);
    const at = Math.min(index, siblings.length);
    siblings.splice(at, 0, key);
    this.parents.set(key, parent);
    return at;
  }

  /** Renames `from` to `to`, keeping its place and its children. */
  rename(from: string, to: string): void {
    if (!this.parents.has(from)) return;
    const parent = this.parentOf(from);
    const siblings = this.children(parent);
    siblings[siblings.indexOf(from)] = to;
    this.parents.delete(from);
    this.parents.set(to, parent);
    const below = this.kids.get(from);
    if (below !== undefined) {
      this.kids.delete(from);
      this.kids.set(to, below);
      for (const child of below) this.parents.set(child, to);
    }
  }

  /** Takes `key` and everything below it out. */
  removeTree(key: string): void {
    if (!this.parents.has(key)) return;
    for (const child of [...this.children(key)]) this.removeTree(child);
    this.kids.delete(key);
    this.remove(key);
  }
}
