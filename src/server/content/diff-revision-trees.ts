import { diffComm } from 'node-diff3';
import { indexPages, type IndexedPage, type PageIndex } from './page-index';
import type { RevisionTree, StoredFile } from './revision-tree';
import { sameValue } from './same-value';

/** A page as a change names it (the shape of GitBook's ChangedRevisionPage). */
export interface ChangedPage {
  id: string;
  type: string;
  title: string;
  path: string;
}

export interface ChangedFile {
  id: string;
  name: string;
  contentType: string;
}

export interface AttributeChange {
  before?: unknown;
  after?: unknown;
}

/**
 * One semantic change, named after GitBook's RevisionSemanticChange. The page body appears as the
 * `document` attribute, with the body hashes as before/after (the route loads Markdown if needed).
 */
export type RevisionChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, AttributeChange> }
  | {
      type: 'page_moved';
      page: ChangedPage;
      parent: { before?: ChangedPage; after?: ChangedPage };
    }
  | { type: 'file_created' | 'file_deleted'; file: ChangedFile }
  | { type: 'file_edited'; file: ChangedFile; attributes: Record<string, AttributeChange> };

/** Keys that are bookkeeping, not something a reader of a change list cares about. */
const IGNORED_PAGE_KEYS = new Set(['pages', 'createdAt', 'updatedAt', 'documentId']);
const IGNORED_FILE_KEYS = new Set(['id', 'createdAt']);

/**
 * The semantic difference from `base` to `head`, pages matched by id.
 *
 * Order: pages of `head` depth-first (created, or edited then moved), then pages deleted from
 * `base` depth-first (every page of a deleted subtree is listed), then files created or edited
 * in `head` order, then files deleted. A page is "moved" when its parent changed, or when it kept
 * its parent but left the longest run of siblings that kept their relative order — so moving one
 * page within its siblings reports that page alone, not every sibling whose index shifted.
 */
export function diffRevisionTrees(base: RevisionTree, head: RevisionTree): RevisionChange[] {
  const B = indexPages(base.pages);
  const H = indexPages(head.pages);
  const reordered = reorderedPages(B, H);
  const changes: RevisionChange[] = [];

  for (const id of H.order) {
    const after = H.pages.get(id)!;
    const before = B.pages.get(id);
    if (!before) {
      changes.push({ type: 'page_created', page: changedPage(after) });
      continue;
    }
    const attributes = changedAttributes(before.page, after.page, IGNORED_PAGE_KEYS);
    if ('body' in attributes) {
      attributes.document = attributes.body!;
      delete attributes.body;
    }
    if (Object.keys(attributes).length > 0) {
      changes.push({ type: 'page_edited', page: changedPage(after), attributes });
    }
    if (before.parent !== after.parent || reordered.has(id)) {
      const parentBefore = before.parent === null ? undefined : B.pages.get(before.parent);
      const parentAfter = after.parent === null ? undefined : H.pages.get(after.parent);
      changes.push({
        type: 'page_moved',
        page: changedPage(after),
        parent: {
          ...(parentBefore ? { before: changedPage(parentBefore) } : {}),
          ...(parentAfter ? { after: changedPage(parentAfter) } : {}),
        },
      });
    }
  }
  for (const id of B.order) {
    if (!H.pages.has(id))
      changes.push({ type: 'page_deleted', page: changedPage(B.pages.get(id)!) });
  }

  const baseFiles = new Map(base.files.map((file) => [file.id, file]));
  const headIds = new Set(head.files.map((file) => file.id));
  for (const file of head.files) {
    const before = baseFiles.get(file.id);
    if (!before) {
      changes.push({ type: 'file_created', file: changedFile(file) });
      continue;
    }
    const attributes = changedAttributes(before, file, IGNORED_FILE_KEYS);
    if (Object.keys(attributes).length > 0) {
      changes.push({ type: 'file_edited', file: changedFile(file), attributes });
    }
  }
  for (const file of base.files) {
    if (!headIds.has(file.id)) changes.push({ type: 'file_deleted', file: changedFile(file) });
  }
  return changes;
}

/**
 * Pages that stayed under the same parent but changed place among the siblings that also stayed:
 * those outside a longest common subsequence of the base and head orders.
 */
function reorderedPages(B: PageIndex, H: PageIndex): Set<string> {
  const moved = new Set<string>();
  for (const [parent, headChildren] of H.children) {
    const stayed = (id: string) => B.pages.get(id)?.parent === parent;
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

function changedAttributes(
  before: object,
  after: object,
  ignored: ReadonlySet<string>,
): Record<string, AttributeChange> {
  const left = before as Record<string, unknown>;
  const right = after as Record<string, unknown>;
  const attributes: Record<string, AttributeChange> = {};
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (ignored.has(key) || sameValue(left[key], right[key])) continue;
    attributes[key] = {
      ...(left[key] !== undefined ? { before: left[key] } : {}),
      ...(right[key] !== undefined ? { after: right[key] } : {}),
    };
  }
  return attributes;
}

function changedPage({ page, path }: IndexedPage): ChangedPage {
  return { id: page.id, type: page.type, title: page.title, path };
}

function changedFile(file: StoredFile): ChangedFile {
  return { id: file.id, name: file.name, contentType: file.contentType };
}
