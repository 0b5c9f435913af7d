import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MirrorPage } from '../../shared/gitsync/gitsync-types';
import { renderGitSyncLayout } from '../../shared/gitsync/render-gitsync-layout';
import { classifyLocalChanges, type CachedPage } from './classify-local-changes';
import type { LocalContentChange } from './local-content-change';
import type { IndexedFile } from './scan-space-folder';

/** A tree as a parent per page (an earlier page or null), siblings in page order. */
type Shape = { order: number[]; parents: (number | null)[] };

const shapeArbitrary = (count: number) =>
  fc
    .tuple(
      fc.shuffledSubarray(
        Array.from({ length: count }, (_, i) => i),
        { minLength: count, maxLength: count },
      ),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: count, maxLength: count }),
    )
    .map(([order, picks]): Shape => {
      const parents: (number | null)[] = new Array<number | null>(count).fill(null);
      order.forEach((page, position) => {
        // The parent is a page placed earlier (or none), so the tree has no cycle.
        const choice = Math.min(position, Math.floor((picks[position] ?? 0) * (position + 1)));
        parents[page] = choice === position ? null : (order[choice] ?? null);
      });
      return { order, parents };
    });

function build(shape: Shape): MirrorPage[] {
  const pages = shape.order.map((i): MirrorPage => ({
    id: `p${i}`,
    type: 'document',
    title: `Page ${i}`,
    slug: `page-${i}`,
    markdown: `# Page ${i}\n`,
    pages: [],
  }));
  const byId = new Map(pages.map((page) => [page.id, page]));
  const top: MirrorPage[] = [];
  for (const page of pages) {
    const parent = shape.parents[Number(page.id.slice(1))];
    (parent === null || parent === undefined ? top : byId.get(`p${parent}`)!.pages).push(page);
  }
  return top;
}

function render(pages: readonly { id: string; pages: readonly { id: string }[] }[]): string {
  return pages
    .map((page) =>
      page.pages.length === 0 ? page.id : `${page.id}[${render(page.pages as typeof pages)}]`,
    )
    .join(', ');
}

/** The server's semantics, enough for moves and deletes. */
function apply(pages: readonly CachedPage[], changes: readonly LocalContentChange[]) {
  type Node = { id: string; pages: Node[] };
  const copy = (list: readonly CachedPage[]): Node[] =>
    list.map((page) => ({ id: page.id, pages: copy(page.pages) }));
  const tree = copy(pages);
  const locate = (id: string, list = tree): { page: Node; siblings: Node[] } | undefined => {
    for (const page of list) {
      if (page.id === id) return { page, siblings: list };
      const found = locate(id, page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const contains = (page: Node, id: string): boolean =>
    page.id === id || page.pages.some((child) => contains(child, id));
  for (const change of changes) {
    if (change.operation !== 'update_page') throw new Error(`unexpected ${change.operation}`);
    const located = locate(change.page)!;
    const target =
      change.into === undefined
        ? located.siblings
        : change.into === null
          ? tree
          : locate(change.into)!.page.pages;
    if (change.into && contains(located.page, change.into)) throw new Error('cycle');
    located.siblings.splice(located.siblings.indexOf(located.page), 1);
    if (change.at !== undefined && change.at > target.length) throw new Error('at out of range');
    target.splice(change.at ?? target.length, 0, located.page);
  }
  return tree;
}

describe('classifyLocalChanges (property)', () => {
  it('turns any SUMMARY.md rearrangement into moves that rebuild exactly that tree', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 9 })
          .chain((count) => fc.tuple(shapeArbitrary(count), shapeArbitrary(count))),
        ([before, after]) => {
          const pages = build(before);
          const layout = renderGitSyncLayout({ pages, files: [] });
          const index: IndexedFile[] = [...layout.pagePaths].map(([pageId, path]) => ({
            path,
            kind: 'page',
            pageId,
            fileId: null,
            contentHash: `hash-${pageId}`,
            size: 1,
            mtimeMs: 1,
          }));
          // The files stay where they are; only SUMMARY.md says where the pages go.
          const lines = ['# Table of contents', ''];
          const list = (nodes: MirrorPage[], depth: number) => {
            for (const node of nodes) {
              lines.push(
                `${'  '.repeat(depth)}* [${node.title}](${layout.pagePaths.get(node.id)})`,
              );
              list(node.pages, depth + 1);
            }
          };
          const target = build(after);
          list(target, 0);
          const text = `${lines.join('\n')}\n`;
          const result = classifyLocalChanges({
            scan: {
              status: 'scanned',
              changed: [
                {
                  path: 'SUMMARY.md',
                  kind: 'layout',
                  hash: 'new',
                  size: text.length,
                  mtimeMs: 2,
                  text,
                },
              ],
              added: [],
              deleted: [],
              touched: [],
              problems: [],
              unchanged: index.length,
            },
            index,
            pages,
          });
          expect(result.problems).toEqual([]);
          const changes = result.changes.map((planned) => planned.change);
          expect(render(apply(pages, changes))).toBe(render(target));
          // Never more moves than pages, and none at all when nothing moved.
          expect(changes.length).toBeLessThanOrEqual(before.order.length);
          if (render(pages) === render(target)) expect(changes).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
