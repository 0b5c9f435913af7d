import { Type } from '@sinclair/typebox';
import { NO_NUL_PATTERN } from '../../http/text-schemas';
import { PageQuerySchema, UserSchema } from '../../http/common-schemas';
import { StringEnum } from '../members/string-enum';

/** Largest comment or reply body, in characters (the schema) and in UTF-8 bytes (the handler). */
export const MAX_BODY_LENGTH = 64 * 1024;
/** Emoji of a reaction: a short token (an emoji or a `:shortcode:`), never whitespace. */
export const MAX_EMOJI_LENGTH = 50;
/** Reactions one request may add or remove, and one user may hold on one comment or reply. */
export const MAX_REACTIONS = 50;
/** Authors one list request may filter on. */
export const MAX_AUTHORS = 100;

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

/**
 * Path parameters of every comment route. `changeRequestId` (the change request's id or number)
 * is present exactly on the `/change-requests/{CR}` paths; the space paths never carry it, so one
 * schema serves both variants and the handler tells them apart by it.
 */
const ScopeParams = { spaceId: IdParam, changeRequestId: Type.Optional(IdParam) };
export const CommentsParams = Type.Object(ScopeParams);
export const CommentParams = Type.Object({ ...ScopeParams, commentId: IdParam });
export const ReplyParams = Type.Object({
  ...ScopeParams,
  commentId: IdParam,
  commentReplyId: IdParam,
});

export const CommentFormatSchema = StringEnum(['markdown', 'document'] as const);
export type CommentFormat = 'markdown' | 'document';

export const FormatQuery = Type.Object({ format: Type.Optional(CommentFormatSchema) });

export const ListCommentsQuery = Type.Object({
  ...PageQuerySchema,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  status: Type.Optional(StringEnum(['all', 'open', 'resolved'] as const, { default: 'all' })),
  format: Type.Optional(CommentFormatSchema),
  targetPage: Type.Optional(IdParam),
  // Ajv coerces a single `authors=u1` into ['u1']; the client repeats the key for several.
  authors: Type.Optional(Type.Array(IdParam, { minItems: 1, maxItems: MAX_AUTHORS })),
});

export const ListRepliesQuery = Type.Object({
  ...PageQuerySchema,
  format: Type.Optional(CommentFormatSchema),
});

/** `{ markdown }`: the only body variant the spec shows. */
const MarkdownBody = Type.Object({
  markdown: Type.String({ minLength: 1, maxLength: MAX_BODY_LENGTH, pattern: NO_NUL_PATTERN }),
});

const Emoji = Type.String({ minLength: 1, maxLength: MAX_EMOJI_LENGTH, pattern: '^\\S+$' });
const Reactions = Type.Array(Emoji, { maxItems: MAX_REACTIONS });

export const PostCommentBody = Type.Object({
  body: MarkdownBody,
  page: Type.Optional(IdParam),
  node: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const PostReplyBody = Type.Object({ body: MarkdownBody });

export const UpdateCommentBody = Type.Object({
  resolved: Type.Optional(Type.Boolean()),
  body: Type.Optional(MarkdownBody),
  addedReactions: Type.Optional(Reactions),
  removedReactions: Type.Optional(Reactions),
});

export const UpdateReplyBody = Type.Object({
  body: Type.Optional(MarkdownBody),
  addedReactions: Type.Optional(Reactions),
  removedReactions: Type.Optional(Reactions),
});

// --- responses ----------------------------------------------------------------------------------

const ReactionSchema = Type.Object({
  emoji: Type.String(),
  count: Type.Integer(),
  users: Type.Array(Type.Object({ user: UserSchema, reactedAt: Type.String() })),
});

/** `{ markdown }` with format=markdown (the default), `{ document }` with format=document. */
const BodySchema = Type.Object({
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(Type.Unknown()),
});

const PermissionsSchema = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean(),
  reply: Type.Boolean(),
  delete: Type.Boolean(),
});

const TargetPageSchema = Type.Object({
  id: Type.String(),
  title: Type.Optional(Type.String()),
  emoji: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  createdAt: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  outdated: Type.Optional(Type.Boolean()),
});

export const CommentSchema = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Type.String(),
  editedAt: Type.Optional(Type.String()),
  reactions: Type.Array(ReactionSchema),
  replies: Type.Integer(),
  repliers: Type.Array(
    Type.Object({ user: UserSchema, count: Type.Integer(), updatedAt: Type.String() }),
  ),
  body: BodySchema,
  target: Type.Object({
    node: Type.Optional(Type.Object({ id: Type.String() })),
    changeRequest: Type.Optional(Type.String()),
    page: Type.Optional(TargetPageSchema),
    space: Type.String(),
    revision: Type.String(),
  }),
  urls: Type.Object({ location: Type.String() }),
  permissions: PermissionsSchema,
  status: StringEnum(['open', 'resolved'] as const),
  resolvedAt: Type.Optional(Type.String()),
  resolvedBy: Type.Optional(UserSchema),
});

export const CommentReplySchema = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Type.String(),
  editedAt: Type.Optional(Type.String()),
  reactions: Type.Array(ReactionSchema),
  body: BodySchema,
  urls: Type.Object({ location: Type.String() }),
  permissions: PermissionsSchema,
});
