import { diffComm } from 'node-diff3';
import type { PageDiff } from '../../shared/contract/change-requests';
import { PAGE_FIELDS } from '../../shared/gitsync/page-fields';
import { lineDiff } from './line-diff';
import type { RevisionPageRow } from './revision-store';

/** Page fields compared besides the title and the content (the server's stored page fields). */
const COMPARED_FIELDS = [...PAGE_FIELDS, 'slug', 'href', 'layout', 'cover'] as const;

/** A page's Markdown: its row's, or loaded by hash when the rows were read without bodies. */
export type BodyOf = (page: RevisionPageRow) => string;

const ownBody: BodyOf = (page) => page.markdown ?? '';

interface Placed {
  page: RevisionPageRow;
  path: string;
}

interface TreeIndex {
  pages: Map<string, Placed>;
  /** Child ids in order, per parent (`null`: the top). */
  children: Map<string | null, string[]>;
  /** Every page id, depth-first in tree order. */
  order: string[];
}

/** Rows come parents first, siblings by position: rebuilds order and paths (groups add none). */
function indexTree(rows: readonly RevisionPageRow[]): TreeIndex {
  const children = new Map<string | null, RevisionPageRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parentId) ?? [];
    siblings.push(row);
    children.set(row.parentId, siblings);
  }
  const index: TreeIndex = { pages: new Map(), children: new Map(), order: [] };
  const visit = (parent: string | null, parentPath: string) => {
    const siblings = [...(children.get(parent) ?? [])].sort((a, b) => a.position - b.position);
    if (siblings.length > 0)
      index.children.set(
        parent,
        siblings.map((page) => page.id),
      );
    for (const page of siblings) {
      if (index.pages.has(page.id)) continue;
      const slug = typeof page.meta['slug'] === 'string' ? page.meta['slug'] : page.id;
      const path = parentPath ? `${parentPath}/${slug}` : slug;
      index.pages.set(page.id, { page, path });
      index.order.push(page.id);
      visit(page.id, page.type === 'group' ? parentPath : path);
    }
  };
  visit(null, '');
  return index;
}

/**
 * What a change request changes, page by page, from its base revision to its own: pages added,
 * removed, moved (new parent, or out of the longest run of siblings that kept their order: the
 * same rule as the server's `/changes`), renamed, with other fields changed, and a line diff of
 * each changed body. Pages of `head` come first in tree order, then removed ones.
 */
export function diffPageTrees(
  base: readonly RevisionPageRow[],
  head: readonly RevisionPageRow[],
  bodyOf: BodyOf = ownBody,
): PageDiff[] {
  return [...pageDiffs(base, head, bodyOf)];
}

/**
 * diffPageTrees one page at a time: a screen shows the first page before the rest are diffed.
 * Pages are compared by body hash, so `bodyOf` is only asked for the bodies of changed pages.
 */
export function* pageDiffs(
  base: readonly RevisionPageRow[],
  head: readonly RevisionPageRow[],
  bodyOf: BodyOf = ownBody,
): Generator<PageDiff, void, undefined> {
  const B = indexTree(base);
  const H = indexTree(head);
  const reordered = reorderedPages(B, H);
  for (const id of H.order) {
    const after = H.pages.get(id)!;
    const before = B.pages.get(id);
    const diff = before
      ? changedPage(before, after, { B, H, bodyOf }, reordered.has(id))
      : addedPage(after, bodyOf);
    if (diff) yield diff;
  }
  for (const id of B.order) {
    if (!H.pages.has(id)) yield removedPage(B.pages.get(id)!, bodyOf);
  }
}

function addedPage({ page, path }: Placed, bodyOf: BodyOf): PageDiff {
  const body = page.type === 'document' ? lineDiff('', bodyOf(page)) : undefined;
  return {
    ...pageRef(page, path),
    status: 'added',
    renamedFrom: null,
    moved: null,
    fields: [],
    contentChanged: body !== undefined && body.added > 0,
    added: body?.added ?? 0,
    removed: 0,
    lines: body?.lines ?? [],
  };
}

function removedPage({ page, path }: Placed, bodyOf: BodyOf): PageDiff {
  const body = page.type === 'document' ? lineDiff(bodyOf(page), '') : undefined;
  return {
    ...pageRef(page, path),
    status: 'removed',
    renamedFrom: null,
    moved: null,
    fields: [],
    contentChanged: body !== undefined && body.removed > 0,
    added: 0,
    removed: body?.removed ?? 0,
    lines: body?.lines ?? [],
  };
}

function changedPage(
  before: Placed,
  after: Placed,
  { B, H, bodyOf }: { B: TreeIndex; H: TreeIndex; bodyOf: BodyOf },
  reordered: boolean,
): PageDiff | undefined {
  const old = before.page;
  const now = after.page;
  const fields: string[] = COMPARED_FIELDS.filter(
    (key) => JSON.stringify(old.meta[key]) !== JSON.stringify(now.meta[key]),
  );
  if (old.type !== now.type) fields.push('type');
  const contentChanged = old.bodyHash !== now.bodyHash;
  const renamed = old.title !== now.title;
  const moved = old.parentId !== now.parentId || reordered;
  if (!contentChanged && !renamed && !moved && fields.length === 0) return undefined;
  const body = contentChanged ? lineDiff(bodyOf(old), bodyOf(now)) : undefined;
  const parentTitle = (tree: TreeIndex, id: string | null) =>
    id === null ? null : (tree.pages.get(id)?.page.title ?? null);
  return {
    ...pageRef(now, after.path),
    status: 'modified',
    renamedFrom: renamed ? old.title : null,
    moved: moved
      ? { fromParent: parentTitle(B, old.parentId), toParent: parentTitle(H, now.parentId) }
      : null,
    fields,
    contentChanged,
    added: body?.added ?? 0,
    removed: body?.removed ?? 0,
    lines: body?.lines ?? [],
  };
}

function pageRef(page: RevisionPageRow, path: string) {
  return { pageId: page.id, type: page.type, title: page.title, path };
}

/** Pages that kept their parent but left the longest common run of the siblings that stayed. */
function reorderedPages(B: TreeIndex, H: TreeIndex): Set<string> {
  const moved = new Set<string>();
  for (const [parent, headChildren] of H.children) {
    const stayed = (id: string) => B.pages.get(id)?.page.parentId === parent;
    const headOrder = headChildren.filter(stayed);
    if (headOrder.length < 2) continue;
    const inHead = new Set(headOrder);
    const baseOrder = (B.children.get(parent) ?? []).filter((id) => inHead.has(id));
    if (baseOrder.every((id, index) => headOrder[index] === id)) continue;
    for (const block of diffComm(baseOrder, headOrder)) {
      for (const id of block.buffer2 ?? []) moved.add(id);
    }
  }
  return moved;
}
