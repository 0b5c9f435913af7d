import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses, noContentResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import {
  CommentParams,
  CommentReplySchema,
  CommentSchema,
  CommentsParams,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  ReplyParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from './comment-schema';
import { CommentService } from './comment-service';

/**
 * Where comments live: a space's own comments, and each change request's. The same routes are
 * registered under both prefixes; `changeRequestId` in the path tells the service which.
 */
const PREFIXES = [
  '/v1/spaces/:spaceId',
  '/v1/spaces/:spaceId/change-requests/:changeRequestId',
] as const;

export function commentRoutes(app: TypedApp, ctx: ServerContext): void {
  const service = new CommentService(ctx);
  for (const prefix of PREFIXES) commentRoutesAt(app, service, prefix);
}

function commentRoutesAt(app: TypedApp, service: CommentService, prefix: string): void {
  const comments = `${prefix}/comments`;
  const comment = `${comments}/:commentId`;
  const replies = `${comment}/replies`;
  const reply = `${replies}/:commentReplyId`;

  app.get(
    comments,
    {
      schema: {
        params: CommentsParams,
        querystring: ListCommentsQuery,
        response: { 200: ListSchema(CommentSchema), ...errorResponses },
      },
    },
    async (request) => service.list(callerOf(request).userId, request.params, request.query),
  );

  app.post(
    comments,
    {
      schema: {
        params: CommentsParams,
        querystring: FormatQuery,
        body: PostCommentBody,
        response: { 200: CommentSchema, ...errorResponses },
      },
    },
    async (request) =>
      service.create(callerOf(request).userId, request.params, request.body, request.query.format),
  );

  app.get(
    comment,
    {
      schema: {
        params: CommentParams,
        querystring: FormatQuery,
        response: { 200: CommentSchema, ...errorResponses },
      },
    },
    async (request) =>
      service.get(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.query.format,
      ),
  );

  app.put(
    comment,
    {
      schema: {
        params: CommentParams,
        querystring: FormatQuery,
        body: UpdateCommentBody,
        response: { 200: CommentSchema, ...errorResponses },
      },
    },
    async (request) =>
      service.update(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.body,
        request.query.format,
      ),
  );

  app.delete(
    comment,
    { schema: { params: CommentParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      service.remove(callerOf(request).userId, request.params, request.params.commentId);
      return reply.code(205).send(undefined);
    },
  );

  app.get(
    replies,
    {
      schema: {
        params: CommentParams,
        querystring: ListRepliesQuery,
        response: { 200: ListSchema(CommentReplySchema), ...errorResponses },
      },
    },
    async (request) =>
      service.listReplies(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.query,
      ),
  );

  app.post(
    replies,
    {
      schema: {
        params: CommentParams,
        querystring: FormatQuery,
        body: PostReplyBody,
        response: { 200: CommentReplySchema, ...errorResponses },
      },
    },
    async (request) =>
      service.createReply(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.body,
        request.query.format,
      ),
  );

  app.get(
    reply,
    {
      schema: {
        params: ReplyParams,
        querystring: FormatQuery,
        response: { 200: CommentReplySchema, ...errorResponses },
      },
    },
    async (request) =>
      service.getReply(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.params.commentReplyId,
        request.query.format,
      ),
  );

  app.put(
    reply,
    {
      schema: {
        params: ReplyParams,
        querystring: FormatQuery,
        body: UpdateReplyBody,
        response: { 200: CommentReplySchema, ...errorResponses },
      },
    },
    async (request) =>
      service.updateReply(
        callerOf(request).userId,
        request.params,
        request.params.commentId,
        request.params.commentReplyId,
        request.body,
        request.query.format,
      ),
  );

  app.delete(
    reply,
    { schema: { params: ReplyParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, response) => {
      const { commentId, commentReplyId } = request.params;
      service.removeReply(callerOf(request).userId, request.params, commentId, commentReplyId);
      return response.code(205).send(undefined);
    },
  );
}
