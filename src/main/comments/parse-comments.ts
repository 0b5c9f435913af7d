import { RemoteProtocolError } from '../remote/errors';
import type { RemoteComment, RemoteCommentReaction, RemoteReply } from './comment-remote';

type Json = Record<string, unknown>;

function object(value: unknown, what: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RemoteProtocolError(`${what} is not an object`);
  }
  return value as Json;
}

function text(json: Json, key: string, what: string): string {
  const value = json[key];
  if (typeof value !== 'string') throw new RemoteProtocolError(`${what} has no ${key}`);
  return value;
}

function optionalText(json: Json, key: string): string | null {
  const value = json[key];
  return typeof value === 'string' ? value : null;
}

function reactionsOf(value: unknown): RemoteCommentReaction[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const json = object(item, 'A reaction');
    const emoji = optionalText(json, 'emoji');
    if (emoji === null) return [];
    const users = Array.isArray(json['users']) ? (json['users'] as unknown[]) : [];
    const ids = users.flatMap((entry) => {
      const user = (entry as { user?: { id?: unknown } } | null)?.user?.id;
      return typeof user === 'string' ? [user] : [];
    });
    return [{ emoji, users: ids }];
  });
}

/** A published CommentReply (or the shared part of a Comment). */
export function parseReply(value: unknown): RemoteReply {
  const json = object(value, 'A comment');
  const id = text(json, 'id', 'A comment');
  const what = `Comment ${id}`;
  const author = object(json['postedBy'], `${what}'s author`);
  const body = object(json['body'], `${what}'s body`);
  const permissions = (json['permissions'] ?? {}) as { edit?: unknown };
  return {
    id,
    author: {
      id: text(author, 'id', `${what}'s author`),
      displayName: optionalText(author, 'displayName') ?? text(author, 'id', `${what}'s author`),
    },
    markdown: optionalText(body, 'markdown') ?? '',
    postedAt: text(json, 'postedAt', what),
    editedAt: optionalText(json, 'editedAt'),
    reactions: reactionsOf(json['reactions']),
    canEdit: permissions.edit === true,
  };
}

export function parseComment(value: unknown): RemoteComment {
  const reply = parseReply(value);
  const json = value as Json;
  const target = object(json['target'] ?? {}, `Comment ${reply.id}'s target`);
  const page = target['page'] === undefined ? null : object(target['page'], 'A comment page');
  const repliers = Array.isArray(json['repliers']) ? (json['repliers'] as unknown[]) : [];
  const latest = repliers
    .map((entry) => String((entry as { updatedAt?: unknown } | null)?.updatedAt ?? ''))
    .sort()
    .pop();
  return {
    ...reply,
    page:
      page === null
        ? null
        : {
            id: text(page, 'id', 'A comment page'),
            title: optionalText(page, 'title') ?? '',
            path: optionalText(page, 'path') ?? '',
          },
    resolved: json['status'] === 'resolved',
    repliesFingerprint: JSON.stringify([json['replies'] ?? 0, latest ?? '']),
  };
}
