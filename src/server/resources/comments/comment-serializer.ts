import type { JSONDocument } from '@gitbook/api';
import type { Urls } from '../../http/urls';
import { serializeUser, type UserRow } from '../users/user-serializer';
import type { CommentRow, ReactionRow, ReplierRow, ReplyRow } from './comment-queries';
import type { CommentFormat } from './comment-schema';
import type { TargetPage } from './page-targets';

/** What the caller may do on a space, which decides every comment's `permissions`. */
export interface CommentCaller {
  userId: string;
  /** At least the comment role: may post, reply, react and resolve. */
  canComment: boolean;
  /** A space admin: may delete anyone's comments and replies. */
  isAdmin: boolean;
}

/** Everything a comment or reply is serialised from, loaded in a few statements per list. */
export interface CommentSerializeContext {
  urls: Urls;
  caller: CommentCaller;
  format: CommentFormat;
  users: Map<string, UserRow>;
  /** Reactions by target id, oldest first. */
  reactions: Map<string, ReactionRow[]>;
  /** The document of a body (format=document), converted beforehand off the event loop. */
  document(markdown: string): JSONDocument;
}

/**
 * Authors edit the text of their own comments and replies; anyone who may comment replies and
 * reacts; authors and space admins delete. Writing needs the comment role, even for an author
 * whose role has since been lowered to read.
 */
export function permissionsFor(authorId: string, caller: CommentCaller) {
  const isAuthor = authorId === caller.userId;
  return {
    view: true,
    edit: caller.canComment && isAuthor,
    reply: caller.canComment,
    delete: caller.canComment && (isAuthor || caller.isAdmin),
  };
}

/** A user that cannot be loaded (never expected: comments reference users) still serialises. */
function userOf(id: string, ctx: CommentSerializeContext) {
  const row = ctx.users.get(id) ?? { id, display_name: id, email: '', photo_url: null };
  return serializeUser(row, ctx.urls);
}

export function serializeBody(markdown: string, ctx: CommentSerializeContext) {
  return ctx.format === 'document' ? { document: ctx.document(markdown) } : { markdown };
}

/** Reactions grouped by emoji, each group in the order it was first used, users oldest first. */
export function serializeReactions(rows: readonly ReactionRow[], ctx: CommentSerializeContext) {
  const groups = new Map<string, { user: ReturnType<typeof userOf>; reactedAt: string }[]>();
  for (const row of rows) {
    let users = groups.get(row.emoji);
    if (!users) {
      users = [];
      groups.set(row.emoji, users);
    }
    users.push({ user: userOf(row.user_id, ctx), reactedAt: row.reacted_at });
  }
  return [...groups].map(([emoji, users]) => ({ emoji, count: users.length, users }));
}

export interface CommentView {
  row: CommentRow;
  /** API path of the comment (`/spaces/…/comments/…`), made absolute here. */
  path: string;
  page: TargetPage | undefined;
  repliers: readonly ReplierRow[];
}

export function serializeComment(view: CommentView, ctx: CommentSerializeContext) {
  const { row } = view;
  const resolvedAt = row.status === 'resolved' ? row.resolved_at : null;
  return {
    object: 'comment' as const,
    id: row.id,
    postedBy: userOf(row.posted_by, ctx),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: serializeReactions(ctx.reactions.get(row.id) ?? [], ctx),
    replies: view.repliers.reduce((sum, replier) => sum + replier.count, 0),
    repliers: view.repliers.map((replier) => ({
      user: userOf(replier.user_id, ctx),
      count: replier.count,
      updatedAt: replier.last_at,
    })),
    body: serializeBody(row.body, ctx),
    target: {
      ...(row.node_id ? { node: { id: row.node_id } } : {}),
      ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
      ...(view.page ? { page: view.page } : {}),
      space: row.space_id,
      revision: row.revision_id ?? '',
    },
    urls: { location: ctx.urls.api(view.path) },
    permissions: permissionsFor(row.posted_by, ctx.caller),
    // resolvedAt and resolvedBy exist exactly when the comment is resolved (published shape).
    ...(resolvedAt !== null
      ? {
          status: 'resolved' as const,
          resolvedAt,
          ...(row.resolved_by ? { resolvedBy: userOf(row.resolved_by, ctx) } : {}),
        }
      : { status: 'open' as const }),
  };
}

export function serializeReply(row: ReplyRow, path: string, ctx: CommentSerializeContext) {
  return {
    object: 'comment-reply' as const,
    id: row.id,
    postedBy: userOf(row.posted_by, ctx),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: serializeReactions(ctx.reactions.get(row.id) ?? [], ctx),
    body: serializeBody(row.body, ctx),
    urls: { location: ctx.urls.api(path) },
    permissions: permissionsFor(row.posted_by, ctx.caller),
  };
}
