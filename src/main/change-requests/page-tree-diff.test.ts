import { describe, expect, it } from 'vitest';
import { diffPageTrees } from './page-tree-diff';
import type { RevisionPageRow } from './revision-store';

function page(
  id: string,
  parentId: string | null,
  position: number,
  extra: Partial<RevisionPageRow> = {},
): RevisionPageRow {
  const markdown = extra.markdown ?? `# ${id}\n`;
  return {
    id,
    parentId,
    position,
    type: 'document',
    title: id,
    meta: { slug: id.toLowerCase() },
    bodyHash: markdown,
    markdown,
    ...extra,
  };
}

describe('diffPageTrees', () => {
  it('finds added, removed, renamed, moved and edited pages with their paths', () => {
    const base = [page('A', null, 0), page('B', null, 1), page('C', 'A', 0), page('D', null, 2)];
    const head = [
      page('A', null, 0, { title: 'Alpha' }),
      page('B', null, 1, { markdown: '# B\nmore\n', meta: { slug: 'b', description: 'new' } }),
      page('C', null, 2),
      page('E', 'B', 0),
    ];
    const diff = diffPageTrees(base, head);
    expect(diff.map((item) => [item.pageId, item.status, item.path])).toEqual([
      ['A', 'modified', 'a'],
      ['B', 'modified', 'b'],
      ['E', 'added', 'b/e'],
      ['C', 'modified', 'c'],
      ['D', 'removed', 'd'],
    ]);
    expect(diff[0]).toMatchObject({ renamedFrom: 'A', title: 'Alpha', contentChanged: false });
    expect(diff[1]).toMatchObject({ fields: ['description'], contentChanged: true, added: 1 });
    expect(diff[3]!.moved).toEqual({ fromParent: 'A', toParent: null });
  });

  it('reports only the page that left its siblings order, not every shifted one', () => {
    const base = ['P', 'Q', 'R', 'S'].map((id, i) => page(id, null, i));
    const head = ['Q', 'R', 'S', 'P'].map((id, i) => page(id, null, i));
    const diff = diffPageTrees(base, head);
    expect(diff.map((item) => item.pageId)).toEqual(['P']);
    expect(diff[0]!.moved).toEqual({ fromParent: null, toParent: null });
  });

  it('reports nothing for identical trees', () => {
    const tree = [page('A', null, 0), page('B', 'A', 0)];
    expect(diffPageTrees(tree, tree)).toEqual([]);
  });
});
