import { describe, expect, it } from 'vitest';
import type { PageDiff } from '../../shared/contract/change-requests';
import { conflictPages } from './conflict-pages';

function changed(pageId: string, title: string, path: string): PageDiff {
  return {
    pageId,
    type: 'document',
    title,
    path,
    status: 'modified',
    renamedFrom: null,
    moved: null,
    fields: [],
    contentChanged: true,
    added: 1,
    removed: 1,
    lines: [],
  };
}

const CR_DIFF = [changed('p-a', 'A', 'guides/a'), changed('p-b', 'B', 'b')];

describe('conflictPages', () => {
  it('lists the pages and files the server names, once each, placed by the diff', () => {
    const pages = conflictPages(
      [
        { reason: 'content', page: { id: 'p-a', title: 'A' }, file: null },
        { reason: 'metadata', page: { id: 'p-a', title: 'A' }, file: null },
        { reason: 'file', page: null, file: { id: 'f1', name: 'diagram.png' } },
        { reason: 'delete-edit', page: { id: 'p-gone', title: 'Gone' }, file: null },
      ],
      CR_DIFF,
      undefined,
    );
    expect(pages).toEqual([
      { pageId: 'p-a', title: 'A', path: 'guides/a' },
      { pageId: null, title: 'diagram.png', path: 'diagram.png' },
      { pageId: 'p-gone', title: 'Gone', path: '' },
    ]);
  });

  it('without names from the server: the pages both the change request and main changed', () => {
    const main = [changed('p-b', 'B', 'b'), changed('p-c', 'C', 'c')];
    expect(conflictPages([], CR_DIFF, main)).toEqual([{ pageId: 'p-b', title: 'B', path: 'b' }]);
    expect(conflictPages([], CR_DIFF, undefined)).toEqual([]);
  });
});
