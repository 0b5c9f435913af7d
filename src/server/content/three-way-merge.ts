import { diff3Merge } from 'node-diff3';
import { mergeSequences } from './merge-sequences';
import { indexPages, type IndexedPage, type PageIndex } from './page-index';
import type { RevisionTree, StoredFile, StoredPage } from './revision-tree';
import { sameValue } from './same-value';

/**
 * Where Markdown bodies live. RevisionStore satisfies this as it is, so a route passes its store;
 * tests pass an in-memory one. These two calls are the merge's only side effects.
 */
export interface BodyStore {
  getBody(hash: string): string | undefined;
  putBody(markdown: string): string;
  /**
   * The line merge of three bodies when it was computed beforehand (off the event loop, see
   * `bodiesToMerge`); undefined to compute it here.
   */
  mergedText?(base: string | undefined, ours: string, theirs: string): TextMerge | undefined;
}

/** A line-level merge of three Markdown texts: the result, or why the edits overlap. */
export type TextMerge = { markdown: string } | { conflict: string };

/** The body hashes of pages edited on both sides: the line merges `mergeRevisionTrees` will run. */
export function bodiesToMerge(
  base: RevisionTree,
  ours: RevisionTree,
  theirs: RevisionTree,
): { base: string | undefined; ours: string; theirs: string }[] {
  const B = indexPages(base.pages);
  const T = indexPages(theirs.pages);
  const triples: { base: string | undefined; ours: string; theirs: string }[] = [];
  for (const [id, o] of indexPages(ours.pages).pages) {
    const t = T.pages.get(id);
    const b = B.pages.get(id)?.page.body;
    const oursBody = o.page.body;
    const theirsBody = t?.page.body;
    if (oursBody === undefined || theirsBody === undefined || oursBody === theirsBody) continue;
    if (b === oursBody || b === theirsBody) continue;
    triples.push({ base: b, ours: oursBody, theirs: theirsBody });
  }
  return triples;
}

export type PageConflictReason =
  'content' | 'metadata' | 'delete-edit' | 'move' | 'parent-deleted' | 'slug';

export type MergeConflictReason = PageConflictReason | 'file';

export type MergeConflict =
  | { reason: PageConflictReason; pageId: string; title: string; detail: string }
  | { reason: 'file'; fileId: string; title: string; detail: string };

export type MergeResult =
  { kind: 'merged'; tree: RevisionTree } | { kind: 'conflicts'; conflicts: MergeConflict[] };

export interface MergeOptions {
  /**
   * Return the other side untouched when one side equals the base (default true). Turning it off
   * runs the full merge regardless, which tests use to check that both paths agree.
   */
  fastPath?: boolean;
}

/**
 * Page keys that are bookkeeping rather than content: they never conflict. `pages` is the
 * structure (merged separately), `body` is merged line by line, the rest are derived below.
 */
const NOT_METADATA = new Set(['pages', 'body', 'documentId', 'createdAt', 'updatedAt']);

const CONFLICT = Symbol('conflict');

/** A page that survives the merge, before its children are attached. */
interface MergedPage {
  parent: string | null;
  /** Every merged key except `pages`, in the key order of the side it mostly comes from. */
  fields: Record<string, unknown>;
  /** Markdown produced by diff3, stored only once the whole merge is known to be clean. */
  pendingBody?: string;
}

/**
 * Three-way merge of a space's content against the common ancestor `base`.
 *
 * Pages are matched by id. Per page: inserts on either side are kept; a delete wins over an
 * untouched page but conflicts with an edit or move on the other side (`delete-edit`); the parent
 * and every metadata field take the side that changed them and conflict when both changed them
 * differently (`move`, `metadata`); bodies changed on both sides are merged line by line with
 * diff3 and conflict when the edits overlap (`content`). Afterwards a page whose merged parent no
 * longer exists (`parent-deleted`), pages whose merged parents form a cycle (`move`) and siblings
 * that end up sharing a slug (`slug`) conflict. Sibling order follows `mergeSequences`. Files are
 * merged by id as whole objects (`file`).
 *
 * On conflicts nothing is stored and no tree is returned, so the caller changes nothing. The
 * merged tree may share objects with the inputs; treat all of them as immutable.
 */
export function mergeRevisionTrees(
  base: RevisionTree,
  ours: RevisionTree,
  theirs: RevisionTree,
  bodies: BodyStore,
  options: MergeOptions = {},
): MergeResult {
  const B = indexPages(base.pages);
  const O = indexPages(ours.pages);
  const T = indexPages(theirs.pages);

  if (options.fastPath !== false) {
    if (sameTree(B, base.files, O, ours.files)) return { kind: 'merged', tree: theirs };
    if (sameTree(B, base.files, T, theirs.files)) return { kind: 'merged', tree: ours };
    if (sameTree(O, ours.files, T, theirs.files)) return { kind: 'merged', tree: ours };
  }

  const conflicts: MergeConflict[] = [];
  const conflicted = new Set<string>();
  const addPageConflict = (
    reason: PageConflictReason,
    id: string,
    title: string,
    detail: string,
  ) => {
    conflicts.push({ reason, pageId: id, title, detail });
    conflicted.add(id);
  };

  const merged = new Map<string, MergedPage>();
  for (const id of unionInOrder(O.order, T.order, B.order)) {
    const b = B.pages.get(id);
    const o = O.pages.get(id);
    const t = T.pages.get(id);
    if (!o && !t) continue; // deleted on both sides
    const title = (o ?? t ?? b)!.page.title;

    if (!o || !t) {
      const kept = (o ?? t)!;
      if (!b) {
        merged.set(id, { parent: kept.parent, fields: withoutPages(kept.page) });
      } else if (touched(b, kept)) {
        const [deleter, editor] = o ? ['theirs', 'ours'] : ['ours', 'theirs'];
        addPageConflict(
          'delete-edit',
          id,
          title,
          `deleted on ${deleter}, ${b.parent === kept.parent ? 'edited' : 'moved'} on ${editor}`,
        );
      }
      continue; // deleted on one side, untouched on the other
    }

    // Most pages are untouched on at least one side: take the other side whole, no per-field work.
    if (b && sameIndexedPage(b, o)) {
      merged.set(id, { parent: t.parent, fields: withoutPages(t.page) });
      continue;
    }
    if (b && sameIndexedPage(b, t)) {
      merged.set(id, { parent: o.parent, fields: withoutPages(o.page) });
      continue;
    }

    const parent = merge3(b?.parent, o.parent, t.parent);
    if (parent === CONFLICT) {
      addPageConflict(
        'move',
        id,
        title,
        `moved under ${o.parent ?? 'the root'} on ours and under ${t.parent ?? 'the root'} on theirs`,
      );
      continue;
    }
    const page = mergePageFields(b?.page, o.page, t.page, bodies);
    if ('conflict' in page) {
      addPageConflict(page.conflict, id, title, page.detail);
      continue;
    }
    merged.set(id, { parent: parent ?? null, ...page });
  }

  for (const [id, page] of merged) {
    if (page.parent !== null && !merged.has(page.parent) && !conflicted.has(page.parent)) {
      addPageConflict(
        'parent-deleted',
        id,
        String(page.fields.title),
        `its parent ${page.parent} was deleted on the other side`,
      );
    }
  }
  for (const cycle of findCycles(merged)) {
    for (const id of cycle) {
      addPageConflict(
        'move',
        id,
        String(merged.get(id)!.fields.title),
        `the two sides' moves put it inside its own subpages (${cycle.join(' → ')})`,
      );
    }
  }

  const childrenOf = orderChildren(merged, B, O, T);
  for (const [parent, ids] of childrenOf) {
    for (const clash of slugClashes(parent, ids, merged, O, T)) {
      for (const id of clash.ids) {
        addPageConflict(
          'slug',
          id,
          String(merged.get(id)!.fields.title),
          `slug "${clash.slug}" is used by sibling pages ${clash.ids.join(', ')}`,
        );
      }
    }
  }

  const files = mergeFiles(base.files, ours.files, theirs.files);
  if ('conflicts' in files) conflicts.push(...files.conflicts);

  // (The second test is already implied by the first; it lets TypeScript narrow `files`.)
  if (conflicts.length > 0 || 'conflicts' in files) return { kind: 'conflicts', conflicts };

  for (const page of merged.values()) {
    if (page.pendingBody !== undefined) page.fields.body = bodies.putBody(page.pendingBody);
  }
  const build = (parent: string | null): StoredPage[] =>
    (childrenOf.get(parent) ?? []).map(
      // The fields were copied key by key from StoredPage objects, so the shape is a page's.
      (id) => ({ ...merged.get(id)!.fields, pages: build(id) }) as unknown as StoredPage,
    );
  return { kind: 'merged', tree: { pages: build(null), files: files.files } };
}

/** Takes the side that changed a value; both changed differently → CONFLICT. */
function merge3<T>(base: T | undefined, ours: T, theirs: T): T | typeof CONFLICT {
  if (sameValue(ours, theirs)) return ours;
  if (sameValue(base, ours)) return theirs;
  if (sameValue(base, theirs)) return ours;
  return CONFLICT;
}

/** True when `side` changed the page relative to the base: a move, a metadata or body edit. */
function touched(base: IndexedPage, side: IndexedPage): boolean {
  if (base.parent !== side.parent || base.page.body !== side.page.body) return true;
  for (const key of keysOf(base.page, side.page)) {
    if (!NOT_METADATA.has(key) && !sameValue(field(base.page, key), field(side.page, key)))
      return true;
  }
  return false;
}

type FieldsOutcome =
  | { fields: Record<string, unknown>; pendingBody?: string }
  | { conflict: 'metadata' | 'content'; detail: string };

/** Merges one page present on both sides (and possibly inserted on both, then `base` is absent). */
function mergePageFields(
  base: StoredPage | undefined,
  ours: StoredPage,
  theirs: StoredPage,
  bodies: BodyStore,
): FieldsOutcome {
  const fields: Record<string, unknown> = {};
  const clashing: string[] = [];
  for (const key of keysOf(ours, theirs, base)) {
    if (NOT_METADATA.has(key)) continue;
    const value = merge3(field(base, key), field(ours, key), field(theirs, key));
    if (value === CONFLICT) clashing.push(key);
    else if (value !== undefined) fields[key] = value;
  }
  if (clashing.length > 0) {
    return { conflict: 'metadata', detail: `both sides changed ${clashing.join(', ')}` };
  }

  // Timestamps and the document id are derived data: they follow the content, never conflict.
  fields.createdAt = ours.createdAt ?? theirs.createdAt;
  fields.updatedAt =
    theirs.updatedAt !== undefined && !(theirs.updatedAt <= ours.updatedAt)
      ? theirs.updatedAt
      : ours.updatedAt;
  const documentId = merge3(base?.documentId, ours.documentId, theirs.documentId);
  const keptDocumentId = documentId === CONFLICT ? ours.documentId : documentId;
  if (keptDocumentId !== undefined) fields.documentId = keptDocumentId;

  const body = mergeBody(base?.body, ours.body, theirs.body, bodies);
  if ('conflict' in body) return { conflict: 'content', detail: body.conflict };
  if (body.hash !== undefined) fields.body = body.hash;
  return body.markdown === undefined ? { fields } : { fields, pendingBody: body.markdown };
}

type BodyOutcome = { hash?: string; markdown?: string } | { conflict: string };

/** Takes the side that changed the body; when both did, a line-level diff3 of the Markdown. */
function mergeBody(
  base: string | undefined,
  ours: string | undefined,
  theirs: string | undefined,
  bodies: BodyStore,
): BodyOutcome {
  if (ours === theirs) return { hash: ours };
  if (base === ours) return { hash: theirs };
  if (base === theirs) return { hash: ours };
  if (ours === undefined || theirs === undefined) {
    return {
      conflict: `the body was removed on ${ours ? 'theirs' : 'ours'} and edited on the other`,
    };
  }
  const merged = bodies.mergedText?.(base, ours, theirs);
  if (merged) return merged;
  const baseText = base === undefined ? '' : bodies.getBody(base);
  const oursText = bodies.getBody(ours);
  const theirsText = bodies.getBody(theirs);
  if (baseText === undefined || oursText === undefined || theirsText === undefined) {
    return { conflict: 'a body to merge is missing from the store' };
  }
  return mergeText(baseText, oursText, theirsText);
}

/** diff3 of the lines of three texts; overlapping edits (adjacent lines too) conflict. */
export function mergeText(baseText: string, oursText: string, theirsText: string): TextMerge {
  const regions = diff3Merge<string>(
    oursText.split('\n'),
    baseText.split('\n'),
    theirsText.split('\n'),
    { excludeFalseConflicts: true },
  );
  const lines: string[] = [];
  for (const region of regions) {
    if (region.conflict) {
      const { oIndex, o } = region.conflict;
      const span = o.length > 1 ? `lines ${oIndex + 1}–${oIndex + o.length}` : `line ${oIndex + 1}`;
      return { conflict: `both sides edited ${span} of the common version` };
    }
    if (region.ok) lines.push(...region.ok);
  }
  return { markdown: lines.join('\n') };
}

/** Groups of merged pages whose parents point at each other; each cycle is reported once. */
function findCycles(merged: ReadonlyMap<string, MergedPage>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'walking' | 'done'>();
  for (const start of merged.keys()) {
    const path: string[] = [];
    let current: string | null = start;
    while (current !== null && merged.has(current) && !state.has(current)) {
      state.set(current, 'walking');
      path.push(current);
      current = merged.get(current)!.parent;
    }
    if (current !== null && state.get(current) === 'walking') {
      cycles.push(path.slice(path.indexOf(current)));
    }
    for (const id of path) state.set(id, 'done');
  }
  return cycles;
}

/** The merged child order of every parent that has merged children (root under `null`). */
function orderChildren(
  merged: ReadonlyMap<string, MergedPage>,
  B: PageIndex,
  O: PageIndex,
  T: PageIndex,
): Map<string | null, string[]> {
  const members = new Map<string | null, Set<string>>();
  for (const [id, page] of merged) {
    const set = members.get(page.parent);
    if (set) set.add(id);
    else members.set(page.parent, new Set([id]));
  }
  const ordered = new Map<string | null, string[]>();
  for (const [parent, ids] of members) {
    ordered.set(
      parent,
      mergeSequences(
        B.children.get(parent) ?? [],
        O.children.get(parent) ?? [],
        T.children.get(parent) ?? [],
        ids,
      ),
    );
  }
  return ordered;
}

/**
 * Sibling groups sharing a slug after the merge. A clash that already existed as such on one
 * side is that side's own state, not something the merge introduced, so it is let through.
 */
function slugClashes(
  parent: string | null,
  ids: readonly string[],
  merged: ReadonlyMap<string, MergedPage>,
  O: PageIndex,
  T: PageIndex,
): Array<{ slug: string; ids: string[] }> {
  const bySlug = new Map<string, string[]>();
  for (const id of ids) {
    const slug = String(merged.get(id)!.fields.slug);
    const group = bySlug.get(slug);
    if (group) group.push(id);
    else bySlug.set(slug, [id]);
  }
  const clashes: Array<{ slug: string; ids: string[] }> = [];
  for (const [slug, group] of bySlug) {
    if (group.length < 2) continue;
    const existedOn = (side: PageIndex) =>
      group.every((id) => {
        const entry = side.pages.get(id);
        return entry !== undefined && entry.parent === parent && entry.page.slug === slug;
      });
    if (!existedOn(O) && !existedOn(T)) clashes.push({ slug, ids: group });
  }
  return clashes;
}

/** Files merge by id as whole records: one side's change wins, two different changes conflict. */
function mergeFiles(
  base: readonly StoredFile[],
  ours: readonly StoredFile[],
  theirs: readonly StoredFile[],
): { files: StoredFile[] } | { conflicts: MergeConflict[] } {
  const byId = (files: readonly StoredFile[]) => new Map(files.map((file) => [file.id, file]));
  const B = byId(base);
  const O = byId(ours);
  const T = byId(theirs);
  const kept = new Map<string, StoredFile>();
  const conflicts: MergeConflict[] = [];
  for (const id of unionInOrder([...O.keys()], [...T.keys()], [...B.keys()])) {
    const b = B.get(id);
    const o = O.get(id);
    const t = T.get(id);
    const file = merge3(b, o, t);
    if (file === CONFLICT) {
      const title = (o ?? t ?? b)!.name;
      const detail =
        o && t
          ? 'changed differently on both sides'
          : `deleted on ${o ? 'theirs' : 'ours'} and changed on ${o ? 'ours' : 'theirs'}`;
      conflicts.push({ reason: 'file', fileId: id, title, detail });
    } else if (file) {
      kept.set(id, file);
    }
  }
  if (conflicts.length > 0) return { conflicts };
  const order = mergeSequences([...B.keys()], [...O.keys()], [...T.keys()], new Set(kept.keys()));
  return { files: order.map((id) => kept.get(id)!) };
}

/** True when two trees hold the same pages in the same places with the same values, and files. */
function sameTree(
  a: PageIndex,
  aFiles: readonly StoredFile[],
  b: PageIndex,
  bFiles: readonly StoredFile[],
): boolean {
  if (a.pages.size !== b.pages.size || !sameValue(aFiles, bFiles)) return false;
  for (const [id, left] of a.pages) {
    const right = b.pages.get(id);
    if (!right || right.index !== left.index || !sameIndexedPage(left, right)) return false;
  }
  return true;
}

/** Same parent and same values in every key but `pages` (position among siblings aside). */
function sameIndexedPage(a: IndexedPage, b: IndexedPage): boolean {
  if (a.parent !== b.parent) return false;
  const left = a.page as unknown as Record<string, unknown>;
  const right = b.page as unknown as Record<string, unknown>;
  for (const key in left) {
    if (key !== 'pages' && !sameValue(left[key], right[key])) return false;
  }
  for (const key in right) {
    if (key !== 'pages' && !(key in left) && right[key] !== undefined) return false;
  }
  return true;
}

/** Ids of all lists, first-seen order, each once. */
function unionInOrder(...lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const id of list) seen.add(id);
  return [...seen];
}

/** Own keys of the given pages, each once, in the order first seen. */
function keysOf(...pages: ReadonlyArray<StoredPage | undefined>): Set<string> {
  const keys = new Set<string>();
  for (const page of pages) if (page) for (const key of Object.keys(page)) keys.add(key);
  return keys;
}

function field(page: StoredPage | undefined, key: string): unknown {
  return page ? (page as unknown as Record<string, unknown>)[key] : undefined;
}

function withoutPages(page: StoredPage): Record<string, unknown> {
  const { pages: _children, ...fields } = page;
  return fields;
}
