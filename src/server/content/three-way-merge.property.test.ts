import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBodyStore } from './memory-body-store';
import { indexPages, type PageIndex } from './page-index';
import type { RevisionTree, StoredFile, StoredPage } from './revision-tree';
import { sameValue } from './same-value';
import { mergeRevisionTrees, type MergeResult } from './three-way-merge';

/*
 * Property tests of the three-way merge: a random base tree, two random edit scripts applied to
 * copies of it (ours and theirs), then checks on the merge. fast-check prints the seed and the
 * shrunk counterexample on failure; replay with `fc.assert(..., { seed, path })`.
 */

const NUM_RUNS = 300;
const T0 = '2024-01-01T00:00:00.000Z';
const SLUG_POOL = ['intro', 'guide', 'faq'] as const;

// ---------------------------------------------------------------- generators

const pageSpecArb = fc.record({
  parentPick: fc.nat(),
  lineCount: fc.integer({ min: 1, max: 12 }),
  emoji: fc.boolean(),
});

const baseArb = fc.record({
  pages: fc.array(pageSpecArb, { minLength: 1, maxLength: 30, size: 'max' }),
  files: fc.integer({ min: 0, max: 3 }),
});

/** Biased towards the first few pages so both sides often edit the same page. */
const pickArb = fc.oneof(fc.nat({ max: 3 }), fc.nat());

type Op =
  | { kind: 'editLine' | 'insertLine' | 'deleteLine'; page: number; line: number }
  | { kind: 'retitle'; page: number; title: string }
  | { kind: 'reslug'; page: number; slug: string }
  | { kind: 'setEmoji'; page: number; emoji: string | null }
  | { kind: 'insert'; parent: number; at: number; slug: string | null; lineCount: number }
  | { kind: 'delete'; page: number }
  | { kind: 'move'; page: number; parent: number; at: number }
  | { kind: 'renameFile'; file: number; name: string }
  | { kind: 'addFile' }
  | { kind: 'deleteFile'; file: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Line edits weigh most, so that both sides often edit one body and diff3 gets exercised.
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constantFrom('editLine' as const, 'insertLine' as const, 'deleteLine' as const),
      page: pickArb,
      line: fc.nat(),
    }),
  },
  fc.record({
    kind: fc.constant('retitle' as const),
    page: pickArb,
    title: fc.constantFrom('Alpha', 'Beta', 'Gamma'),
  }),
  fc.record({
    kind: fc.constant('reslug' as const),
    page: pickArb,
    slug: fc.constantFrom(...SLUG_POOL),
  }),
  fc.record({
    kind: fc.constant('setEmoji' as const),
    page: pickArb,
    emoji: fc.constantFrom('1F600', '1F4A1', null),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    parent: pickArb,
    at: fc.nat(),
    slug: fc.option(fc.constantFrom(...SLUG_POOL)),
    lineCount: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), page: pickArb }),
  fc.record({ kind: fc.constant('move' as const), page: pickArb, parent: fc.nat(), at: fc.nat() }),
  fc.record({
    kind: fc.constant('renameFile' as const),
    file: fc.nat(),
    name: fc.constantFrom('a.png', 'b.png'),
  }),
  fc.record({ kind: fc.constant('addFile' as const) }),
  fc.record({ kind: fc.constant('deleteFile' as const), file: fc.nat() }),
);

const scriptArb = fc.array(opArb, { maxLength: 10 });

/**
 * Tree-shape edits only, among the first few pages: moves, inserts and deletes that meet each
 * other often, so parent-deleted and cycle-creating combinations come up in every run.
 */
const hotArb = fc.nat({ max: 3 });
const structuralOpArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      page: hotArb,
      parent: hotArb,
      at: fc.nat(),
    }),
  },
  fc.record({
    kind: fc.constant('insert' as const),
    parent: hotArb,
    at: fc.nat(),
    slug: fc.constant(null),
    lineCount: fc.constant(1),
  }),
  fc.record({ kind: fc.constant('delete' as const), page: hotArb }),
);
const structuralScriptArb = fc.array(structuralOpArb, { minLength: 1, maxLength: 4 });
const smallBaseArb = fc.record({
  pages: fc.array(pageSpecArb, { minLength: 2, maxLength: 8 }),
  files: fc.constant(0),
});

// ---------------------------------------------------------------- building and editing trees

type BaseSpec = {
  pages: Array<{ parentPick: number; lineCount: number; emoji: boolean }>;
  files: number;
};

function buildBase(spec: BaseSpec, store: MemoryBodyStore): RevisionTree {
  const pages: StoredPage[] = [];
  const placed: Array<{ page: StoredPage; depth: number }> = [];
  spec.pages.forEach((pageSpec, n) => {
    const id = `p${n}`;
    const page: StoredPage = {
      id,
      type: 'document',
      title: `Page ${n}`,
      slug: id,
      ...(pageSpec.emoji ? { emoji: '1F600' } : {}),
      body: store.putBody(linesFor(id, pageSpec.lineCount).join('\n')),
      createdAt: T0,
      updatedAt: T0,
      pages: [],
    };
    // "Nested up to depth 3": a page may only go under a page at depth 1 or 2.
    const parents = placed.filter((entry) => entry.depth < 3);
    const pick = pageSpec.parentPick % (parents.length + 1);
    const parent = pick === 0 ? undefined : parents[pick - 1]!;
    (parent ? parent.page.pages : pages).push(page);
    placed.push({ page, depth: parent ? parent.depth + 1 : 1 });
  });
  const files = Array.from({ length: spec.files }, (_, n) => fileFor(`f${n}`));
  return { pages, files };
}

function linesFor(id: string, count: number): string[] {
  return Array.from({ length: count }, (_, n) => `${id} line ${n}`);
}

function fileFor(id: string): StoredFile {
  return {
    id,
    name: `${id}.png`,
    contentType: 'image/png',
    size: 1,
    blob: `blob-${id}`,
    createdAt: T0,
  };
}

/** What a script touched, to tell whether two scripts are independent. */
interface Touches {
  /** Pages inserted, deleted, moved or edited. */
  pages: Set<string>;
  moved: Set<string>;
  deleted: Set<string>;
  /** New parents of inserted or moved pages, and their ancestors at the time. */
  anchors: Set<string>;
  /** `parent/slug` names taken by inserts, moves and slug changes. */
  names: Set<string>;
  files: Set<string>;
}

interface Located {
  page: StoredPage;
  siblings: StoredPage[];
  index: number;
  parent: StoredPage | null;
  ancestors: string[];
}

function allPages(tree: RevisionTree): Located[] {
  const out: Located[] = [];
  const visit = (siblings: StoredPage[], parent: StoredPage | null, ancestors: string[]) => {
    siblings.forEach((page, index) => {
      out.push({ page, siblings, index, parent, ancestors });
      visit(page.pages, page, [...ancestors, page.id]);
    });
  };
  visit(tree.pages, null, []);
  return out;
}

function subtreeIds(page: StoredPage): string[] {
  return [page.id, ...page.pages.flatMap(subtreeIds)];
}

const parentKey = (parent: StoredPage | null) => parent?.id ?? '<root>';

/** Applies a script to a copy of `base`, as one branch's edits; returns the tree and touches. */
function applyScript(
  base: RevisionTree,
  script: readonly Op[],
  side: 'o' | 't',
  store: MemoryBodyStore,
): { tree: RevisionTree; touches: Touches } {
  const tree = structuredClone(base);
  const touches: Touches = {
    pages: new Set(),
    moved: new Set(),
    deleted: new Set(),
    anchors: new Set(),
    names: new Set(),
    files: new Set(),
  };
  let counter = 0;
  const fresh = () => `${side}${counter++}`;

  const editBody = (page: StoredPage, change: (lines: string[]) => boolean) => {
    const lines = store.getBody(page.body!)!.split('\n');
    if (!change(lines)) return;
    page.body = store.putBody(lines.join('\n'));
    touches.pages.add(page.id);
  };
  /** Parent target `pick`: 0 is the root, otherwise a page, in depth-first order. */
  const target = (pages: Located[], pick: number) => {
    const n = pick % (pages.length + 1);
    const entry = n === 0 ? null : pages[n - 1]!;
    return {
      page: entry?.page ?? null,
      siblings: entry ? entry.page.pages : tree.pages,
      chain: entry ? [...entry.ancestors, entry.page.id] : [],
    };
  };
  const slugFree = (siblings: StoredPage[], slug: string, except?: StoredPage) =>
    siblings.every((page) => page === except || page.slug !== slug);

  for (const op of script) {
    const pages = allPages(tree);
    switch (op.kind) {
      case 'editLine':
      case 'insertLine':
      case 'deleteLine': {
        if (pages.length === 0) break;
        const { page } = pages[op.page % pages.length]!;
        editBody(page, (lines) => {
          const at = op.line % lines.length;
          if (op.kind === 'editLine') lines[at] = `${fresh()} edited`;
          else if (op.kind === 'insertLine') lines.splice(at, 0, `${fresh()} inserted`);
          else if (lines.length > 1) lines.splice(at, 1);
          else return false;
          return true;
        });
        break;
      }
      case 'retitle':
      case 'setEmoji': {
        if (pages.length === 0) break;
        const { page } = pages[op.page % pages.length]!;
        if (op.kind === 'retitle') page.title = op.title;
        else if (op.emoji === null) delete page.emoji;
        else page.emoji = op.emoji;
        touches.pages.add(page.id);
        break;
      }
      case 'reslug': {
        if (pages.length === 0) break;
        const { page, siblings, parent } = pages[op.page % pages.length]!;
        // Each branch stays valid on its own: no sibling slug clash within one side.
        if (!slugFree(siblings, op.slug, page)) break;
        page.slug = op.slug;
        touches.pages.add(page.id);
        touches.names.add(`${parentKey(parent)}/${op.slug}`);
        break;
      }
      case 'insert': {
        const into = target(pages, op.parent);
        const id = fresh();
        const slug = op.slug !== null && slugFree(into.siblings, op.slug) ? op.slug : id;
        into.siblings.splice(op.at % (into.siblings.length + 1), 0, {
          id,
          type: 'document',
          title: `New ${id}`,
          slug,
          body: store.putBody(linesFor(id, op.lineCount).join('\n')),
          createdAt: T0,
          updatedAt: T0,
          pages: [],
        });
        touches.pages.add(id);
        for (const anchor of into.chain) touches.anchors.add(anchor);
        touches.names.add(`${parentKey(into.page)}/${slug}`);
        break;
      }
      case 'delete': {
        if (pages.length === 0) break;
        const { page, siblings, index } = pages[op.page % pages.length]!;
        siblings.splice(index, 1);
        for (const id of subtreeIds(page)) {
          touches.pages.add(id);
          touches.deleted.add(id);
        }
        break;
      }
      case 'move': {
        if (pages.length === 0) break;
        const { page, siblings, index } = pages[op.page % pages.length]!;
        const into = target(pages, op.parent);
        // Never under itself; never next to a sibling with the same slug.
        if (into.chain.includes(page.id) || !slugFree(into.siblings, page.slug, page)) break;
        siblings.splice(index, 1);
        into.siblings.splice(op.at % (into.siblings.length + 1), 0, page);
        touches.pages.add(page.id);
        touches.moved.add(page.id);
        for (const anchor of into.chain) touches.anchors.add(anchor);
        touches.names.add(`${parentKey(into.page)}/${page.slug}`);
        break;
      }
      case 'renameFile':
      case 'deleteFile': {
        if (tree.files.length === 0) break;
        const at = op.file % tree.files.length;
        touches.files.add(tree.files[at]!.id);
        if (op.kind === 'renameFile') tree.files[at]!.name = op.name;
        else tree.files.splice(at, 1);
        break;
      }
      case 'addFile': {
        const file = fileFor(fresh());
        tree.files.push(file);
        touches.files.add(file.id);
        break;
      }
    }
  }
  return { tree, touches };
}

function independent(a: Touches, b: Touches): boolean {
  const meet = (x: Set<string>, y: Set<string>) => [...x].some((item) => y.has(item));
  return !(
    meet(a.pages, b.pages) ||
    meet(a.moved, b.anchors) ||
    meet(b.moved, a.anchors) ||
    meet(a.deleted, b.anchors) ||
    meet(b.deleted, a.anchors) ||
    meet(a.names, b.names) ||
    meet(a.files, b.files)
  );
}

// ---------------------------------------------------------------- checks

const scenarioArb = fc.record({ base: baseArb, ours: scriptArb, theirs: scriptArb });

function scenario(spec: { base: BaseSpec; ours: Op[]; theirs: Op[] }) {
  const store = new MemoryBodyStore();
  const base = buildBase(spec.base, store);
  const ours = applyScript(base, spec.ours, 'o', store);
  const theirs = applyScript(base, spec.theirs, 't', store);
  return { store, base, ours, theirs };
}

function mergedTree(result: MergeResult): RevisionTree {
  if (result.kind !== 'merged') throw new Error('expected a merged result');
  return result.tree;
}

/** Every page id once, and no two siblings sharing a slug. */
function expectWellFormed(tree: RevisionTree): void {
  const ids = allPages(tree).map((entry) => entry.page.id);
  expect(new Set(ids).size).toBe(ids.length);
  const checkSiblings = (siblings: StoredPage[]) => {
    const slugs = siblings.map((page) => page.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const page of siblings) checkSiblings(page.pages);
  };
  checkSiblings(tree.pages);
  const fileIds = tree.files.map((file) => file.id);
  expect(new Set(fileIds).size).toBe(fileIds.length);
}

const bodyLines = (store: MemoryBodyStore, hash: string | undefined) =>
  hash === undefined ? [] : store.getBody(hash)!.split('\n');

const untouched = (base: PageIndex, other: PageIndex, id: string) => {
  const before = base.pages.get(id)!;
  const after = other.pages.get(id);
  if (!after || after.parent !== before.parent) return false;
  const { pages: _b, ...left } = before.page;
  const { pages: _a, ...right } = after.page;
  return sameValue(left, right);
};

/**
 * Every edit `side` made that `other` did not also touch is in the merged tree: inserts exist,
 * deletes are gone, field changes, moves and body line edits are kept, and a parent whose
 * children only `side` rearranged keeps `side`'s order.
 */
function expectSideKept(
  store: MemoryBodyStore,
  baseTree: RevisionTree,
  sideTree: RevisionTree,
  otherTree: RevisionTree,
  resultTree: RevisionTree,
): void {
  const [B, S, X, R] = [baseTree, sideTree, otherTree, resultTree].map((tree) =>
    indexPages(tree.pages),
  ) as [PageIndex, PageIndex, PageIndex, PageIndex];

  for (const [id, entry] of S.pages) {
    const before = B.pages.get(id);
    const after = R.pages.get(id);
    if (!before) {
      expect(after, `page ${id} inserted on one side`).toBeDefined();
      expect(after!.parent).toBe(entry.parent);
      expect(after!.page.body).toBe(entry.page.body);
      expect(after!.page.slug).toBe(entry.page.slug);
      continue;
    }
    const theOther = X.pages.get(id);
    if (!theOther) continue; // deleted by the other side; that side's rule is checked there
    expect(after, `page ${id} kept by both sides`).toBeDefined();
    for (const key of ['title', 'slug', 'emoji'] as const) {
      if (entry.page[key] !== before.page[key] && theOther.page[key] === before.page[key]) {
        expect(after!.page[key], `${key} of ${id}`).toBe(entry.page[key]);
      }
    }
    if (entry.parent !== before.parent && theOther.parent === before.parent) {
      expect(after!.parent, `parent of ${id}`).toBe(entry.parent);
    }
    const [baseBody, sideBody, otherBody] = [before, entry, theOther].map((e) => e.page.body);
    if (sideBody !== baseBody && otherBody === baseBody) {
      expect(after!.page.body).toBe(sideBody);
    } else if (sideBody !== baseBody) {
      const baseLines = new Set(bodyLines(store, baseBody));
      const sideLines = new Set(bodyLines(store, sideBody));
      const merged = new Set(bodyLines(store, after!.page.body));
      for (const line of sideLines) if (!baseLines.has(line)) expect(merged).toContain(line);
      for (const line of baseLines) if (!sideLines.has(line)) expect(merged).not.toContain(line);
    }
  }

  for (const id of B.pages.keys()) {
    if (!S.pages.has(id) && (!X.pages.has(id) || untouched(B, X, id))) {
      expect(R.pages.has(id), `page ${id} deleted on one side`).toBe(false);
    }
  }

  for (const [parent, children] of S.children) {
    const otherChildren = X.children.get(parent) ?? [];
    const baseChildren = B.children.get(parent) ?? [];
    if (parent !== null && !R.pages.has(parent)) continue;
    if (sameValue(otherChildren, baseChildren)) {
      expect(R.children.get(parent) ?? [], `children of ${parent}`).toEqual(children);
    }
  }
}

// ---------------------------------------------------------------- properties

describe('mergeRevisionTrees — properties', () => {
  it('merge(base, base, x) and merge(base, x, base) give x, with or without the fast path', () => {
    fc.assert(
      fc.property(baseArb, scriptArb, (baseSpec, script) => {
        const { store, base, ours } = scenario({ base: baseSpec, ours: script, theirs: [] });
        const x = ours.tree;
        expect(mergedTree(mergeRevisionTrees(base, base, x, store))).toEqual(x);
        expect(mergedTree(mergeRevisionTrees(base, x, base, store))).toEqual(x);
        expect(
          mergedTree(
            mergeRevisionTrees(base, structuredClone(base), x, store, { fastPath: false }),
          ),
        ).toEqual(x);
        expect(
          mergedTree(
            mergeRevisionTrees(base, x, structuredClone(base), store, { fastPath: false }),
          ),
        ).toEqual(x);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a clean merge keeps both sides’ edits and is well formed; a conflict writes nothing', () => {
    let clean = 0;
    fc.assert(
      fc.property(scenarioArb, (spec) => {
        const { store, base, ours, theirs } = scenario(spec);
        const writes = store.writes;
        const result = mergeRevisionTrees(base, ours.tree, theirs.tree, store);
        if (result.kind === 'conflicts') {
          expect(result).not.toHaveProperty('tree');
          expect(result.conflicts.length).toBeGreaterThan(0);
          expect(store.writes).toBe(writes);
          return;
        }
        clean++;
        expectWellFormed(result.tree);
        expectSideKept(store, base, ours.tree, theirs.tree, result.tree);
        expectSideKept(store, base, theirs.tree, ours.tree, result.tree);
      }),
      { numRuns: NUM_RUNS },
    );
    // Guard against a generator that only ever produces conflicts.
    expect(clean).toBeGreaterThan(NUM_RUNS / 4);
  });

  it('keeps both sides’ tree-shape edits or reports them (moves, inserts, deletes)', () => {
    const reasons = new Set<string>();
    fc.assert(
      fc.property(
        fc.record({ base: smallBaseArb, ours: structuralScriptArb, theirs: structuralScriptArb }),
        (spec) => {
          const { store, base, ours, theirs } = scenario(spec);
          const result = mergeRevisionTrees(base, ours.tree, theirs.tree, store);
          if (result.kind === 'conflicts') {
            for (const conflict of result.conflicts) reasons.add(conflict.reason);
            return;
          }
          expectWellFormed(result.tree);
          expectSideKept(store, base, ours.tree, theirs.tree, result.tree);
          expectSideKept(store, base, theirs.tree, ours.tree, result.tree);
        },
      ),
      // Small trees merge fast; more runs make the rarer cycle-creating pairs of moves certain.
      { numRuns: 2 * NUM_RUNS },
    );
    // The generator does reach the structural conflicts this property is about.
    expect([...reasons].sort()).toEqual(expect.arrayContaining(['move', 'parent-deleted']));
  });

  it('always merges cleanly when the two scripts touch disjoint pages', () => {
    fc.assert(
      fc.property(scenarioArb, (spec) => {
        const { store, base, ours, theirs } = scenario(spec);
        fc.pre(independent(ours.touches, theirs.touches));
        const result = mergeRevisionTrees(base, ours.tree, theirs.tree, store);
        expect(result.kind === 'conflicts' ? result.conflicts : []).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('conflicts or not regardless of which side is ours', () => {
    fc.assert(
      fc.property(scenarioArb, (spec) => {
        const { store, base, ours, theirs } = scenario(spec);
        const forward = mergeRevisionTrees(base, ours.tree, theirs.tree, store);
        const backward = mergeRevisionTrees(base, theirs.tree, ours.tree, store);
        expect(backward.kind).toBe(forward.kind);
        if (forward.kind === 'conflicts' && backward.kind === 'conflicts') {
          const key = (c: (typeof forward.conflicts)[number]) =>
            `${c.reason}:${'pageId' in c ? c.pageId : c.fileId}`;
          expect(new Set(backward.conflicts.map(key))).toEqual(new Set(forward.conflicts.map(key)));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
