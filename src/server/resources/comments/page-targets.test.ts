import { describe, expect, it } from 'vitest';
import type { RevisionTree, StoredPage } from '../../content/revision-tree';
import { PageTargets } from './page-targets';

const page = (id: string, body: string, pages: StoredPage[] = []): StoredPage => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  body,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  pages,
});

const trees: Record<string, RevisionTree> = {
  old: { pages: [page('a', 'h1', [page('b', 'h2')]), page('gone', 'h3')], files: [] },
  new: { pages: [page('a', 'h1', [page('b', 'h2-changed')])], files: [] },
};
const targets = new PageTargets((id) => trees[id]);

describe('PageTargets', () => {
  it('knows which pages a revision has, nested ones included', () => {
    expect(targets.exists('old', 'b')).toBe(true);
    expect(targets.exists('new', 'gone')).toBe(false);
    expect(targets.exists('missing-revision', 'a')).toBe(false);
  });

  it('shows the current page, outdated when its content changed since the comment', () => {
    expect(targets.target('a', 'old', 'new')).toMatchObject({
      id: 'a',
      path: 'a',
      outdated: false,
    });
    expect(targets.target('b', 'old', 'new')).toMatchObject({
      id: 'b',
      title: 'B',
      path: 'a/b',
      outdated: true,
    });
    expect(targets.target('b', 'new', 'new').outdated).toBe(false);
  });

  it('falls back to the page as it was when it is gone, and to its id when unknown', () => {
    expect(targets.target('gone', 'old', 'new')).toMatchObject({
      id: 'gone',
      title: 'GONE',
      outdated: true,
    });
    expect(targets.target('never', 'old', 'new')).toEqual({ id: 'never', outdated: true });
  });
});
