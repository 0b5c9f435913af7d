import { describe, expect, it } from 'vitest';
import { diffRevisionTrees } from './diff-revision-trees';
import type { RevisionTree, StoredFile, StoredPage } from './revision-tree';

const T0 = '2024-01-01T00:00:00.000Z';

const page = (
  id: string,
  pages: StoredPage[] = [],
  extra: Partial<StoredPage> = {},
): StoredPage => ({
  id,
  type: 'document',
  title: `Title ${id}`,
  slug: id,
  body: `hash-${id}`,
  createdAt: T0,
  updatedAt: T0,
  pages,
  ...extra,
});

const file = (id: string): StoredFile => ({
  id,
  name: `${id}.png`,
  contentType: 'image/png',
  size: 1,
  blob: `blob-${id}`,
  createdAt: T0,
});

const base: RevisionTree = {
  pages: [page('a'), page('b', [page('b1'), page('b2')]), page('c'), page('d')],
  files: [file('f1'), file('f2')],
};

const ref = (id: string, path: string) => ({ id, type: 'document', title: `Title ${id}`, path });

describe('diffRevisionTrees', () => {
  it('reports nothing between identical trees', () => {
    expect(diffRevisionTrees(base, structuredClone(base))).toEqual([]);
  });

  it('reports created pages, and every page of a deleted subtree', () => {
    const head: RevisionTree = {
      ...base,
      pages: [page('a', [page('new')]), page('c'), page('d')],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      { type: 'page_created', page: ref('new', 'a/new') },
      { type: 'page_deleted', page: ref('b', 'b') },
      { type: 'page_deleted', page: ref('b1', 'b/b1') },
      { type: 'page_deleted', page: ref('b2', 'b/b2') },
    ]);
  });

  it('reports edited attributes with before and after, the body as `document`', () => {
    const head = structuredClone(base);
    head.pages[0] = page('a', [], {
      title: 'Renamed',
      emoji: '1F600',
      body: 'hash-new',
      updatedAt: '2024-05-05T00:00:00.000Z',
    });
    expect(diffRevisionTrees(base, head)).toEqual([
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'Renamed', path: 'a' },
        attributes: {
          title: { before: 'Title a', after: 'Renamed' },
          document: { before: 'hash-a', after: 'hash-new' },
          emoji: { after: '1F600' },
        },
      },
    ]);
  });

  it('reports a page moved to another parent, with both parents', () => {
    const head: RevisionTree = {
      ...base,
      pages: [page('a', [page('c')]), page('b', [page('b1'), page('b2')]), page('d')],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      { type: 'page_moved', page: ref('c', 'a/c'), parent: { after: ref('a', 'a') } },
    ]);
  });

  it('reports only the page that changed place among its siblings', () => {
    const head: RevisionTree = {
      ...base,
      pages: [page('b', [page('b1'), page('b2')]), page('c'), page('a'), page('d')],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      { type: 'page_moved', page: ref('a', 'a'), parent: {} },
    ]);
  });

  it('does not call siblings moved when a page before them was deleted or inserted', () => {
    const head: RevisionTree = {
      ...base,
      pages: [page('x'), page('b', [page('b1'), page('b2')]), page('c'), page('d')],
    };
    expect(diffRevisionTrees(base, head).map((change) => change.type)).toEqual([
      'page_created',
      'page_deleted',
    ]);
  });

  it('reports both an edit and a move of the same page', () => {
    const head: RevisionTree = {
      ...base,
      pages: [
        page('a'),
        page('b', [page('b1'), page('b2'), page('c', [], { slug: 'see' })]),
        page('d'),
      ],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      {
        type: 'page_edited',
        page: ref('c', 'b/see'),
        attributes: { slug: { before: 'c', after: 'see' } },
      },
      { type: 'page_moved', page: ref('c', 'b/see'), parent: { after: ref('b', 'b') } },
    ]);
  });

  it('reports created, edited and deleted files', () => {
    const head: RevisionTree = {
      ...base,
      files: [{ ...file('f1'), name: 'renamed.png' }, file('f3')],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      {
        type: 'file_edited',
        file: { id: 'f1', name: 'renamed.png', contentType: 'image/png' },
        attributes: { name: { before: 'f1.png', after: 'renamed.png' } },
      },
      { type: 'file_created', file: { id: 'f3', name: 'f3.png', contentType: 'image/png' } },
      { type: 'file_deleted', file: { id: 'f2', name: 'f2.png', contentType: 'image/png' } },
    ]);
  });

  it('gives group children the group’s parent path, as walkPages does', () => {
    const head: RevisionTree = {
      ...base,
      pages: [...base.pages, page('g', [page('child')], { type: 'group', body: undefined })],
    };
    expect(diffRevisionTrees(base, head)).toEqual([
      { type: 'page_created', page: { id: 'g', type: 'group', title: 'Title g', path: 'g' } },
      { type: 'page_created', page: ref('child', 'child') },
    ]);
  });
});
