import { describe, expect, it } from 'vitest';
import { Urls } from '../../http/urls';
import {
  permissionsFor,
  serializeBody,
  serializeReactions,
  type CommentSerializeContext,
} from './comment-serializer';

const caller = (userId: string, canComment: boolean, isAdmin = false) => ({
  userId,
  canComment,
  isAdmin,
});

describe('permissionsFor', () => {
  it('lets authors edit and delete, commenters reply, admins delete', () => {
    expect(permissionsFor('u1', caller('u1', true))).toEqual({
      view: true,
      edit: true,
      reply: true,
      delete: true,
    });
    expect(permissionsFor('u1', caller('u2', true))).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: false,
    });
    expect(permissionsFor('u1', caller('u2', true, true)).delete).toBe(true);
    // An author whose role dropped to read can no longer write.
    expect(permissionsFor('u1', caller('u1', false))).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });
  });
});

describe('serializeReactions', () => {
  it('groups by emoji in first-use order with users oldest first', () => {
    const ctx: CommentSerializeContext = {
      urls: new Urls('http://x.test'),
      caller: caller('u1', true),
      format: 'markdown',
      users: new Map([
        ['u1', { id: 'u1', display_name: 'One', email: 'one@x.test', photo_url: null }],
      ]),
      reactions: new Map(),
      document: () => ({ object: 'document', data: {}, nodes: [] }),
    };
    const groups = serializeReactions(
      [
        { target_id: 'c', emoji: '👍', user_id: 'u1', reacted_at: 't1' },
        { target_id: 'c', emoji: '🎉', user_id: 'u1', reacted_at: 't2' },
        { target_id: 'c', emoji: '👍', user_id: 'u2', reacted_at: 't3' },
      ],
      ctx,
    );
    expect(groups.map((g) => [g.emoji, g.count, g.users.map((u) => u.user.id)])).toEqual([
      ['👍', 2, ['u1', 'u2']],
      ['🎉', 1, ['u1']],
    ]);
    expect(groups[0]!.users[0]!.user.displayName).toBe('One');
  });
});

describe('serializeBody', () => {
  it('answers markdown, or the document converted beforehand', () => {
    const document = { object: 'document' as const, data: {}, nodes: [] };
    const ctx = (format: 'markdown' | 'document'): CommentSerializeContext => ({
      urls: new Urls('http://x.test'),
      caller: caller('u1', true),
      format,
      users: new Map(),
      reactions: new Map(),
      document: (markdown) => (markdown === 'Hi' ? document : { ...document, data: { x: 1 } }),
    });
    expect(serializeBody('Hi', ctx('markdown'))).toEqual({ markdown: 'Hi' });
    expect(serializeBody('Hi', ctx('document'))).toEqual({ document });
  });
});
