import { describe, expect, it } from 'vitest';
import type { RemotePage } from '../sync-ports';
import { BatchPositions } from './batch-positions';
import type { ContentChange } from './outbox-remote';

const page = (id: string, pages: RemotePage[] = []): RemotePage => ({
  id,
  type: 'document',
  title: id,
  pages,
});
const insert = (ref: string, at: number, into?: string): ContentChange => ({
  operation: 'insert_page',
  ref,
  document: { markdown: `# ${ref}` },
  ...(into !== undefined ? { into } : {}),
  at,
});
const atOf = (change: ContentChange) => ('at' in change ? change.at : undefined);

describe('BatchPositions', () => {
  // The change request: a, b[b1, b2], c.
  const tree = () => [page('a'), page('b', [page('b1'), page('b2')]), page('c')];

  it('leaves positions that fit alone, and counts the batch’s earlier changes', () => {
    const positions = new BatchPositions(tree());
    const first = insert('n1', 3);
    expect(positions.fit(first)).toBe(first);
    // After n1 the top level has four pages: 4 fits.
    expect(atOf(positions.fit(insert('n2', 4)))).toBe(4);
    expect(atOf(positions.fit(insert('n3', 1, 'b')))).toBe(1);
  });

  it('sends a position past the end as the end, counted in the real tree', () => {
    // Counted with a page the change request does not have (refused, say): one too many.
    const positions = new BatchPositions(tree());
    expect(positions.fit(insert('n1', 4))).toEqual(insert('n1', 3));
    expect(positions.fit(insert('n2', 9, 'b'))).toEqual(insert('n2', 2, 'b'));
    // Into a page the tree does not know: at most its (unknown, empty) children.
    expect(atOf(positions.fit(insert('n3', 2, 'elsewhere')))).toBe(0);
  });

  it('moves take the page out before counting; deletions take their sub-pages', () => {
    const positions = new BatchPositions(tree());
    // b1 moved to the top level, last: four siblings there before it.
    const move: ContentChange = { operation: 'update_page', page: 'b1', into: null, at: 5 };
    expect(atOf(positions.fit(move))).toBe(3);
    // Reordered within its parent (no `into`): c taken out, three left.
    expect(atOf(positions.fit({ operation: 'update_page', page: 'c', at: 9 }))).toBe(3);
    positions.fit({ operation: 'delete_page', page: 'b' });
    // Left: a, b1, c.
    expect(atOf(positions.fit(insert('n1', 9)))).toBe(3);
    expect(atOf(positions.fit(insert('n2', 1, 'b2')))).toBe(0);
  });

  it('knows an inserted page by its id once created, with what was placed under it', () => {
    const positions = new BatchPositions(tree());
    positions.fit(insert('new', 3));
    positions.created('new', 'p-new');
    positions.fit(insert('child', 0, 'p-new'));
    expect(atOf(positions.fit(insert('second', 5, 'p-new')))).toBe(1);
    const update: ContentChange = {
      operation: 'update_page',
      page: 'a',
      document: { markdown: 'x' },
    };
    expect(positions.fit(update)).toBe(update);
  });
});
