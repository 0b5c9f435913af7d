import { describe, expect, it } from 'vitest';
import { MemoryBodyStore } from './memory-body-store';
import type { RevisionTree, StoredFile, StoredPage } from './revision-tree';
import { mergeRevisionTrees, type MergeConflict, type MergeResult } from './three-way-merge';

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-02-01T00:00:00.000Z';

function setup() {
  const store = new MemoryBodyStore();
  const doc = (
    id: string,
    markdown: string,
    pages: StoredPage[] = [],
    extra: Partial<StoredPage> = {},
  ): StoredPage => ({
    id,
    type: 'document',
    title: `Title ${id}`,
    slug: id,
    body: store.putBody(markdown),
    createdAt: T0,
    updatedAt: T0,
    pages,
    ...extra,
  });
  const file = (id: string, name = `${id}.png`): StoredFile => ({
    id,
    name,
    contentType: 'image/png',
    size: 1,
    blob: `blob-${id}`,
    createdAt: T0,
  });
  return { store, doc, file };
}

/** A copy of `tree` changed by `change`, like one side's edits. */
function edit(tree: RevisionTree, change: (tree: RevisionTree) => void): RevisionTree {
  const copy = structuredClone(tree);
  change(copy);
  return copy;
}

function locate(
  tree: RevisionTree,
  id: string,
): { page: StoredPage; siblings: StoredPage[]; index: number } {
  const search = (siblings: StoredPage[]): ReturnType<typeof locate> | undefined => {
    for (const [index, page] of siblings.entries()) {
      if (page.id === id) return { page, siblings, index };
      const found = search(page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const found = search(tree.pages);
  if (!found) throw new Error(`no page ${id}`);
  return found;
}

const pageOf = (tree: RevisionTree, id: string) => locate(tree, id).page;

function remove(tree: RevisionTree, id: string): StoredPage {
  const { siblings, index } = locate(tree, id);
  return siblings.splice(index, 1)[0]!;
}

function move(tree: RevisionTree, id: string, parent: string | null, at?: number): void {
  const page = remove(tree, id);
  const siblings = parent === null ? tree.pages : pageOf(tree, parent).pages;
  siblings.splice(at ?? siblings.length, 0, page);
}

/** Child ids per page, to compare structure at a glance: `{ root: [...], a: [...] }`. */
function shape(tree: RevisionTree): Record<string, string[]> {
  const out: Record<string, string[]> = { root: tree.pages.map((page) => page.id) };
  const visit = (pages: StoredPage[]) => {
    for (const page of pages) {
      if (page.pages.length > 0) out[page.id] = page.pages.map((child) => child.id);
      visit(page.pages);
    }
  };
  visit(tree.pages);
  return out;
}

function merged(result: MergeResult): RevisionTree {
  if (result.kind !== 'merged') {
    throw new Error(`expected a clean merge, got ${JSON.stringify(result.conflicts)}`);
  }
  return result.tree;
}

function conflictsOf(result: MergeResult): MergeConflict[] {
  if (result.kind !== 'conflicts') throw new Error('expected conflicts, got a clean merge');
  expect(result).not.toHaveProperty('tree');
  return result.conflicts;
}

/** A base of three root pages, `b` with two children, and one file. */
function sample() {
  const kit = setup();
  const { doc, file } = kit;
  const base: RevisionTree = {
    pages: [
      doc('a', 'A1\nA2\nA3\nA4\nA5'),
      doc('b', 'B1\nB2', [doc('b1', 'B1 body'), doc('b2', 'B2 body')]),
      doc('c', 'C1'),
    ],
    files: [file('f1')],
  };
  return { ...kit, base };
}

describe('mergeRevisionTrees — fast path', () => {
  it('returns theirs when ours equals the base, and ours when theirs does', () => {
    const { base, store } = sample();
    const changed = edit(base, (tree) => (pageOf(tree, 'a').title = 'New'));
    const copyOfBase = structuredClone(base);
    expect(merged(mergeRevisionTrees(base, copyOfBase, changed, store))).toBe(changed);
    expect(merged(mergeRevisionTrees(base, changed, copyOfBase, store))).toBe(changed);
  });

  it('returns ours when both sides made the same changes', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => remove(tree, 'c'));
    const theirs = edit(base, (tree) => remove(tree, 'c'));
    expect(merged(mergeRevisionTrees(base, ours, theirs, store))).toBe(ours);
  });

  it('gives the same answer without the fast path', () => {
    const { base, store } = sample();
    const changed = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'New';
      move(tree, 'b2', null, 0);
    });
    const tree = merged(mergeRevisionTrees(base, base, changed, store, { fastPath: false }));
    expect(tree).toEqual(changed);
  });
});

describe('mergeRevisionTrees — inserts', () => {
  it('keeps inserts from both sides, each placed after its neighbour', () => {
    const { base, store, doc } = sample();
    const ours = edit(base, (tree) => {
      tree.pages.splice(1, 0, doc('o-new', 'ours'));
      pageOf(tree, 'b').pages.push(doc('o-child', 'child'));
    });
    const theirs = edit(base, (tree) => tree.pages.splice(2, 0, doc('t-new', 'theirs')));
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(shape(tree)).toEqual({
      root: ['a', 'o-new', 'b', 't-new', 'c'],
      b: ['b1', 'b2', 'o-child'],
    });
    expect(pageOf(tree, 't-new').body).toBe(pageOf(theirs, 't-new').body);
  });

  it('puts ours’ insert before theirs’ when both insert after the same page', () => {
    const { base, store, doc } = sample();
    const ours = edit(base, (tree) => tree.pages.splice(1, 0, doc('o-new', 'x')));
    const theirs = edit(base, (tree) => tree.pages.splice(1, 0, doc('t-new', 'y')));
    expect(shape(merged(mergeRevisionTrees(base, ours, theirs, store))).root).toEqual([
      'a',
      'o-new',
      't-new',
      'b',
      'c',
    ]);
  });

  it('conflicts when one side inserts under a page the other deleted', () => {
    const { base, store, doc } = sample();
    const ours = edit(base, (tree) => pageOf(tree, 'b1').pages.push(doc('o-new', 'x')));
    const theirs = edit(base, (tree) => remove(tree, 'b'));
    const conflicts = conflictsOf(mergeRevisionTrees(base, ours, theirs, store));
    expect(conflicts).toEqual([
      expect.objectContaining({ reason: 'parent-deleted', pageId: 'o-new', title: 'Title o-new' }),
    ]);
  });
});

describe('mergeRevisionTrees — deletes', () => {
  it('deletes a page (and its subpages) deleted on one side and untouched on the other', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => remove(tree, 'b'));
    const theirs = edit(base, (tree) => (pageOf(tree, 'a').title = 'A!'));
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(shape(tree)).toEqual({ root: ['a', 'c'] });
    expect(pageOf(tree, 'a').title).toBe('A!');
  });

  it('deletes a page deleted on both sides', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      remove(tree, 'c');
      pageOf(tree, 'a').title = 'A!';
    });
    const theirs = edit(base, (tree) => remove(tree, 'c'));
    expect(shape(merged(mergeRevisionTrees(base, ours, theirs, store))).root).toEqual(['a', 'b']);
  });

  it('conflicts when a page is deleted on one side and edited on the other', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => (pageOf(tree, 'c').body = store.putBody('C changed')));
    const theirs = edit(base, (tree) => remove(tree, 'c'));
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store))).toEqual([
      {
        reason: 'delete-edit',
        pageId: 'c',
        title: 'Title c',
        detail: 'deleted on theirs, edited on ours',
      },
    ]);
  });

  it('conflicts when a subpage of a deleted page was edited or moved on the other side', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => remove(tree, 'b'));
    const theirs = edit(base, (tree) => {
      pageOf(tree, 'b1').emoji = '1F600';
      move(tree, 'b2', null);
    });
    const conflicts = conflictsOf(mergeRevisionTrees(base, ours, theirs, store));
    expect(conflicts.map((c) => [c.reason, 'pageId' in c && c.pageId, c.detail])).toEqual([
      ['delete-edit', 'b1', 'deleted on ours, edited on theirs'],
      ['delete-edit', 'b2', 'deleted on ours, moved on theirs'],
    ]);
  });
});

describe('mergeRevisionTrees — moves and order', () => {
  it('takes the move of the side that moved a page', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => move(tree, 'c', 'b', 1));
    const theirs = edit(base, (tree) => (pageOf(tree, 'b2').title = 'B2!'));
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(shape(tree)).toEqual({ root: ['a', 'b'], b: ['b1', 'c', 'b2'] });
    expect(pageOf(tree, 'b2').title).toBe('B2!');
  });

  it('accepts the same move on both sides', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      move(tree, 'c', 'a');
      pageOf(tree, 'b').title = 'B!';
    });
    const theirs = edit(base, (tree) => move(tree, 'c', 'a'));
    expect(shape(merged(mergeRevisionTrees(base, ours, theirs, store)))).toEqual({
      root: ['a', 'b'],
      a: ['c'],
      b: ['b1', 'b2'],
    });
  });

  it('conflicts when both sides moved a page to different parents', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => move(tree, 'c', 'a'));
    const theirs = edit(base, (tree) => move(tree, 'c', 'b'));
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store))).toEqual([
      expect.objectContaining({ reason: 'move', pageId: 'c' }),
    ]);
  });

  it('conflicts when the two sides’ moves would put a page inside itself', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => move(tree, 'a', 'c'));
    const theirs = edit(base, (tree) => move(tree, 'c', 'a'));
    const conflicts = conflictsOf(mergeRevisionTrees(base, ours, theirs, store));
    expect(conflicts.map((c) => c.reason)).toEqual(['move', 'move']);
    expect(conflicts.map((c) => ('pageId' in c ? c.pageId : '')).sort()).toEqual(['a', 'c']);
  });

  it('takes the order of the side that reordered, placing the other side’s inserts', () => {
    const { base, store, doc } = sample();
    const ours = edit(base, (tree) => move(tree, 'c', null, 0));
    const theirs = edit(base, (tree) => tree.pages.splice(1, 0, doc('t-new', 'x')));
    expect(shape(merged(mergeRevisionTrees(base, ours, theirs, store))).root).toEqual([
      'c',
      'a',
      't-new',
      'b',
    ]);
    const theirsReordered = edit(base, (tree) => move(tree, 'a', null));
    const oursInsert = edit(base, (tree) => tree.pages.unshift(doc('o-new', 'x')));
    expect(
      shape(merged(mergeRevisionTrees(base, oursInsert, theirsReordered, store))).root,
    ).toEqual(['o-new', 'b', 'c', 'a']);
  });

  it('keeps ours’ order when both sides reordered the same siblings', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => move(tree, 'c', null, 0));
    const theirs = edit(base, (tree) => move(tree, 'a', null));
    expect(shape(merged(mergeRevisionTrees(base, ours, theirs, store))).root).toEqual([
      'c',
      'a',
      'b',
    ]);
  });
});

describe('mergeRevisionTrees — metadata', () => {
  it('takes each field from the side that changed it', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'Ours title';
      pageOf(tree, 'a').updatedAt = T1;
      pageOf(tree, 'a').layout = { cover: true, title: false };
    });
    const theirs = edit(base, (tree) => {
      pageOf(tree, 'a').emoji = '1F4A1';
      pageOf(tree, 'a').hidden = true;
      delete pageOf(tree, 'a').description;
    });
    const page = pageOf(merged(mergeRevisionTrees(base, ours, theirs, store)), 'a');
    expect(page).toMatchObject({
      title: 'Ours title',
      emoji: '1F4A1',
      hidden: true,
      layout: { cover: true, title: false },
      updatedAt: T1,
    });
  });

  it('removes a field one side removed', () => {
    const { store, doc } = setup();
    const base = { pages: [doc('a', 'x', [], { emoji: '1F600', description: 'd' })], files: [] };
    const ours = edit(base, (tree) => delete pageOf(tree, 'a').emoji);
    const theirs = edit(base, (tree) => (pageOf(tree, 'a').description = 'e'));
    const page = pageOf(merged(mergeRevisionTrees(base, ours, theirs, store)), 'a');
    expect(page).not.toHaveProperty('emoji');
    expect(page.description).toBe('e');
  });

  it('accepts identical changes on both sides', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'Same';
      pageOf(tree, 'b').hidden = true;
    });
    const theirs = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'Same';
      pageOf(tree, 'c').hidden = true;
    });
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(pageOf(tree, 'a').title).toBe('Same');
    expect([pageOf(tree, 'b').hidden, pageOf(tree, 'c').hidden]).toEqual([true, true]);
  });

  it('conflicts when both sides changed a field to different values', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'Ours';
      pageOf(tree, 'a').cover = { yPos: 1 };
    });
    const theirs = edit(base, (tree) => {
      pageOf(tree, 'a').title = 'Theirs';
      pageOf(tree, 'a').cover = { yPos: 2 };
    });
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store))).toEqual([
      {
        reason: 'metadata',
        pageId: 'a',
        title: 'Ours',
        detail: 'both sides changed title, cover',
      },
    ]);
  });

  it('conflicts when two siblings end up with the same slug', () => {
    const { base, store, doc } = sample();
    const ours = edit(base, (tree) => (pageOf(tree, 'a').slug = 'guide'));
    const theirs = edit(base, (tree) => tree.pages.push(doc('t-new', 'x', [], { slug: 'guide' })));
    const conflicts = conflictsOf(mergeRevisionTrees(base, ours, theirs, store));
    expect(conflicts.map((c) => [c.reason, 'pageId' in c && c.pageId])).toEqual([
      ['slug', 'a'],
      ['slug', 't-new'],
    ]);
    expect(conflicts[0]!.detail).toBe('slug "guide" is used by sibling pages a, t-new');
  });

  it('conflicts when a move lands a page next to a sibling with its slug', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => (pageOf(tree, 'b1').slug = 'c'));
    const theirs = edit(base, (tree) => move(tree, 'c', 'b'));
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store)).map((c) => c.reason)).toEqual(
      ['slug', 'slug'],
    );
  });

  it('lets through a slug clash that one side already had', () => {
    const { store, doc } = setup();
    const base = { pages: [doc('a', 'x'), doc('b', 'y')], files: [] };
    const ours = edit(base, (tree) => (pageOf(tree, 'b').slug = 'a'));
    const theirs = edit(base, (tree) => (pageOf(tree, 'a').title = 'A!'));
    expect(merged(mergeRevisionTrees(base, ours, theirs, store)).pages.map((p) => p.slug)).toEqual([
      'a',
      'a',
    ]);
  });
});

describe('mergeRevisionTrees — bodies', () => {
  it('takes the body of the only side that changed it, without running diff3 or storing', () => {
    const { base, store } = sample();
    const body = store.putBody('A changed');
    const ours = edit(base, (tree) => (pageOf(tree, 'a').body = body));
    const theirs = edit(base, (tree) => (pageOf(tree, 'c').title = 'C!'));
    const writes = store.writes;
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(pageOf(tree, 'a').body).toBe(body);
    expect(store.writes).toBe(writes);
  });

  it('merges edits to separate lines on both sides and stores the merged body', () => {
    const { base, store } = sample();
    const ours = edit(
      base,
      (tree) => (pageOf(tree, 'a').body = store.putBody('A1 ours\nA2\nA3\nA4\nA5')),
    );
    const theirs = edit(
      base,
      (tree) => (pageOf(tree, 'a').body = store.putBody('A1\nA2\nA3\nA4\nA5 theirs\nA6')),
    );
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(store.getBody(pageOf(tree, 'a').body!)).toBe('A1 ours\nA2\nA3\nA4\nA5 theirs\nA6');
  });

  it('accepts the same body change on both sides', () => {
    const { base, store } = sample();
    const change = (tree: RevisionTree) => {
      pageOf(tree, 'a').body = store.putBody('A1\nsame\nA3\nA4\nA5');
    };
    const ours = edit(base, (tree) => {
      change(tree);
      pageOf(tree, 'c').title = 'C!';
    });
    const theirs = edit(base, change);
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(store.getBody(pageOf(tree, 'a').body!)).toBe('A1\nsame\nA3\nA4\nA5');
  });

  it('conflicts on overlapping line edits and stores nothing', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => {
      pageOf(tree, 'a').body = store.putBody('A1\nA2 ours\nA3\nA4\nA5');
      pageOf(tree, 'c').body = store.putBody('C1\nC2 ours');
    });
    const theirs = edit(base, (tree) => {
      pageOf(tree, 'a').body = store.putBody('A1\nA2 theirs\nA3\nA4\nA5');
      pageOf(tree, 'c').body = store.putBody('C0 theirs\nC1');
    });
    const writes = store.writes;
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store))).toEqual([
      {
        reason: 'content',
        pageId: 'a',
        title: 'Title a',
        detail: 'both sides edited line 2 of the common version',
      },
    ]);
    // The clean diff3 of page c was not stored either: a conflicting merge writes nothing.
    expect(store.writes).toBe(writes);
  });

  it('conflicts when a body is missing from the store instead of throwing', () => {
    const { base, store } = sample();
    const ours = edit(base, (tree) => (pageOf(tree, 'a').body = 'unknown-hash'));
    const theirs = edit(base, (tree) => (pageOf(tree, 'a').body = store.putBody('x')));
    expect(conflictsOf(mergeRevisionTrees(base, ours, theirs, store))[0]).toMatchObject({
      reason: 'content',
      detail: 'a body to merge is missing from the store',
    });
  });
});

describe('mergeRevisionTrees — files', () => {
  it('unions files by id and applies one-sided changes and deletes', () => {
    const { base, store, file } = sample();
    const withTwo = { ...base, files: [...base.files, file('f2')] };
    const ours = edit(withTwo, (tree) => {
      tree.files.push(file('o1'));
      tree.files[0]!.name = 'renamed.png';
    });
    const theirs = edit(withTwo, (tree) => {
      tree.files.splice(1, 1);
      tree.files.push(file('t1'));
    });
    const tree = merged(mergeRevisionTrees(withTwo, ours, theirs, store));
    expect(tree.files.map((f) => [f.id, f.name])).toEqual([
      ['f1', 'renamed.png'],
      ['o1', 'o1.png'],
      ['t1', 't1.png'],
    ]);
  });

  it('conflicts when a file changed differently on both sides, or deleted against a change', () => {
    const { base, store, file } = sample();
    const withTwo = { ...base, files: [...base.files, file('f2')] };
    const ours = edit(withTwo, (tree) => {
      tree.files[0]!.name = 'ours.png';
      tree.files.splice(1, 1);
    });
    const theirs = edit(withTwo, (tree) => {
      tree.files[0]!.name = 'theirs.png';
      tree.files[1]!.size = 2;
    });
    expect(conflictsOf(mergeRevisionTrees(withTwo, ours, theirs, store))).toEqual([
      {
        reason: 'file',
        fileId: 'f1',
        title: 'ours.png',
        detail: 'changed differently on both sides',
      },
      {
        reason: 'file',
        fileId: 'f2',
        title: 'f2.png',
        detail: 'deleted on ours and changed on theirs',
      },
    ]);
  });
});

describe('mergeRevisionTrees — scale', () => {
  // Speed is measured by the merge benchmark (npm run bench), not here.
  it('merges 100 pages changed on each side of a 2,000-page space', () => {
    const { store, doc } = setup();
    const lines = (id: string) =>
      Array.from({ length: 40 }, (_, n) => `${id} paragraph ${n}`).join('\n');
    const base: RevisionTree = {
      pages: Array.from({ length: 40 }, (_, s) =>
        doc(
          `s${s}`,
          lines(`s${s}`),
          Array.from({ length: 49 }, (_, n) => doc(`s${s}-${n}`, lines(`s${s}-${n}`))),
        ),
      ),
      files: [],
    };
    const ids = base.pages.flatMap((section) => section.pages.map((page) => page.id));
    const rewrite = (tree: RevisionTree, id: string, line: number, text: string) => {
      const page = pageOf(tree, id);
      const body = store.getBody(page.body!)!.split('\n');
      body[line] = text;
      page.body = store.putBody(body.join('\n'));
    };
    // Ours touches ids 0..99, theirs 50..149: 50 pages need a real diff3 on separate lines.
    const ours = edit(base, (tree) => {
      for (const id of ids.slice(0, 100)) rewrite(tree, id, 3, 'ours');
      move(tree, ids[500]!, 's39');
    });
    const theirs = edit(base, (tree) => {
      for (const id of ids.slice(50, 150)) rewrite(tree, id, 30, 'theirs');
      pageOf(tree, ids[900]!).title = 'Renamed';
    });
    const tree = merged(mergeRevisionTrees(base, ours, theirs, store));
    expect(store.getBody(pageOf(tree, ids[60]!).body!)!.split('\n')[3]).toBe('ours');
    expect(store.getBody(pageOf(tree, ids[60]!).body!)!.split('\n')[30]).toBe('theirs');
    expect(pageOf(tree, ids[900]!).title).toBe('Renamed');
    expect(pageOf(tree, ids[500]!)).toBe(pageOf(tree, 's39').pages.at(-1));
  });
});
