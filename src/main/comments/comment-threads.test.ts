import { describe, expect, it } from 'vitest';
import type { MirroredComment } from './comment-mirror';
import type { QueuedCommentChange } from './comment-outbox';
import { commentThreads } from './comment-threads';
import { DELETED_REMOTELY } from './drain-comment-outbox';

const ME = { id: 'u-me', displayName: 'Me' };
const BO = { id: 'u-bo', displayName: 'Bo' };
const SCOPE = { spaceId: 's', changeRequest: 4 };

function mirrored(id: string, extra: Partial<MirroredComment> = {}): MirroredComment {
  return {
    id,
    parentId: null,
    author: BO,
    body: `Body of ${id}`,
    postedAt: '2026-01-01T00:00:00.000Z',
    editedAt: null,
    page: null,
    resolved: false,
    reactions: [],
    canEdit: false,
    repliesFingerprint: null,
    ...extra,
  };
}

let next = 0;
function queued(
  kind: QueuedCommentChange['kind'],
  extra: Partial<QueuedCommentChange> = {},
): QueuedCommentChange {
  return {
    id: ++next,
    scope: SCOPE,
    kind,
    commentId: null,
    replyId: null,
    payload: {},
    idempotencyKey: `k${next}`,
    state: 'pending',
    error: null,
    createdAt: '2026-01-02T00:00:00.000Z',
    ...extra,
  };
}

function threads(mirror: MirroredComment[], queue: QueuedCommentChange[], ids = new Map()) {
  return commentThreads({
    mirrored: mirror,
    queued: queue,
    user: ME,
    resolveId: (id) => (id.startsWith('local-') ? ids.get(id) : id),
  });
}

describe('commentThreads', () => {
  it('applies queued changes over the mirror, marked pending', () => {
    next = 0;
    const mirror = [
      mirrored('c1', { reactions: [{ emoji: '👍', users: ['u-bo', 'u-me'] }] }),
      mirrored('r1', { parentId: 'c1', author: ME, canEdit: true }),
    ];
    const result = threads(mirror, [
      queued('react', { commentId: 'c1', payload: { emoji: '👍', add: false } }),
      queued('resolve', { commentId: 'c1', payload: { resolved: true } }),
      queued('edit', { commentId: 'c1', replyId: 'r1', payload: { body: 'Better' } }),
      queued('reply', { commentId: 'c1', payload: { body: 'More' } }),
      queued('create', { payload: { body: 'New', pageId: 'p1' } }),
    ]);
    expect(result).toMatchObject([
      {
        id: 'c1',
        pending: 'resolve',
        resolved: true,
        reactions: [{ emoji: '👍', count: 1, mine: false }],
        replies: [
          { id: 'r1', body: 'Better', pending: 'edit' },
          { id: 'local-4', body: 'More', pending: 'create', author: ME },
        ],
      },
      { id: 'local-5', body: 'New', pending: 'create', page: { id: 'p1' }, replies: [] },
    ]);
  });

  it('keeps an edit of a comment gone from the server, with its text and the problem', () => {
    next = 0;
    const result = threads(
      [],
      [
        queued('edit', { commentId: 'c9', payload: { body: 'My rewrite' }, state: 'failed' }),
        queued('reply', { commentId: 'c8', payload: { body: 'My answer' } }),
      ],
    );
    expect(result).toMatchObject([
      { id: 'c9', body: 'My rewrite', pending: 'edit', problem: DELETED_REMOTELY },
      { id: 'c8', problem: DELETED_REMOTELY, replies: [{ body: 'My answer' }] },
    ]);
  });

  it('finds a comment created from the outbox by its local id', () => {
    next = 10;
    const ids = new Map([['local-3', 'c3']]);
    const result = threads(
      [mirrored('c3', { author: ME })],
      [queued('edit', { commentId: 'local-3', payload: { body: 'Edited' } })],
      ids,
    );
    expect(result).toMatchObject([{ id: 'c3', body: 'Edited', pending: 'edit' }]);
  });
});
