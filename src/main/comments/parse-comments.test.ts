import { describe, expect, it } from 'vitest';
import { RemoteProtocolError } from '../remote/errors';
import { parseComment, parseReply } from './parse-comments';

const USER = { object: 'user', id: 'u-bo', displayName: 'Bo' };

describe('parseComment', () => {
  it('reads the published Comment: body, page, status, reactions, replies fingerprint', () => {
    const comment = parseComment({
      object: 'comment',
      id: 'c1',
      postedBy: USER,
      postedAt: '2026-01-01T00:00:00.000Z',
      editedAt: '2026-01-02T00:00:00.000Z',
      body: { markdown: 'Hello' },
      reactions: [{ emoji: '👍', count: 1, users: [{ user: USER, reactedAt: 'x' }] }],
      replies: 2,
      repliers: [
        { user: USER, count: 1, updatedAt: '2026-01-03T00:00:00.000Z' },
        { user: USER, count: 1, updatedAt: '2026-01-05T00:00:00.000Z' },
      ],
      target: { space: 's', revision: 'r', page: { id: 'p1', title: 'Setup', path: 'setup' } },
      permissions: { view: true, edit: false, reply: true, delete: false },
      status: 'resolved',
    });
    expect(comment).toEqual({
      id: 'c1',
      author: { id: 'u-bo', displayName: 'Bo' },
      markdown: 'Hello',
      postedAt: '2026-01-01T00:00:00.000Z',
      editedAt: '2026-01-02T00:00:00.000Z',
      reactions: [{ emoji: '👍', users: ['u-bo'] }],
      canEdit: false,
      page: { id: 'p1', title: 'Setup', path: 'setup' },
      resolved: true,
      repliesFingerprint: JSON.stringify([2, '2026-01-05T00:00:00.000Z']),
    });
  });

  it('refuses what is not a comment', () => {
    expect(() => parseReply(null)).toThrow(RemoteProtocolError);
    expect(() => parseReply({ id: 'r1', postedBy: USER })).toThrow(/body/);
  });
});
