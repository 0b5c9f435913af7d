import type { Document, GitBookAPI } from '@gitbook/api';
import { RemoteNotFoundError } from '../remote/errors';
import { collectPages, type ListPage } from '../remote/paginate';
import type { WorkspaceClient } from '../remote/workspace-client';
import type {
  CommentScope,
  CommentUpdate,
  RemoteComment,
  RemoteComments,
  RemoteReply,
} from './comment-remote';
import { parseComment, parseReply } from './parse-comments';

/** Path parameters are interpolated raw by the published client. */
const segment = encodeURIComponent;
const PAGE_SIZE = 1000;

/** Our server takes the Markdown variant of a body; the published type names only the document. */
function markdownBody(markdown: string): Document {
  return { markdown } as unknown as Document;
}

/**
 * The comment calls over the WorkspaceClient: the published `@gitbook/api` operations (space or
 * change-request variant by scope) on the rate-controlled fetch. Writes carry the outbox's
 * Idempotency-Key in their headers, resent unchanged by every retry.
 */
export class WorkspaceCommentRemote implements RemoteComments {
  constructor(private readonly client: WorkspaceClient) {}

  async listComments(scope: CommentScope): Promise<RemoteComment[]> {
    const items = await collectPages(async (page) => {
      const query = { limit: PAGE_SIZE, order: 'asc' as const, ...(page ? { page } : {}) };
      return listPage(
        await this.call(scope, (api, space, cr) =>
          cr === null
            ? api.spaces.listCommentsInSpace(space, query)
            : api.spaces.listCommentsInChangeRequest(space, cr, query),
        ),
      );
    });
    return items.map(parseComment);
  }

  async listReplies(scope: CommentScope, commentId: string): Promise<RemoteReply[]> {
    const id = segment(commentId);
    const items = await collectPages(async (page) => {
      const query = { limit: PAGE_SIZE, ...(page ? { page } : {}) };
      return listPage(
        await this.call(scope, (api, space, cr) =>
          cr === null
            ? api.spaces.listCommentRepliesInSpace(space, id, query)
            : api.spaces.listCommentRepliesInChangeRequest(space, cr, id, query),
        ),
      );
    });
    return items.map(parseReply);
  }

  async createComment(
    scope: CommentScope,
    post: { markdown: string; pageId: string | null },
    options: { idempotencyKey: string },
  ): Promise<RemoteComment> {
    const data = {
      body: markdownBody(post.markdown),
      ...(post.pageId !== null ? { page: post.pageId } : {}),
    };
    const headers = { headers: { 'Idempotency-Key': options.idempotencyKey } };
    return parseComment(
      await this.call(scope, (api, space, cr) =>
        cr === null
          ? api.spaces.postCommentInSpace(space, data, headers)
          : api.spaces.postCommentInChangeRequest(space, cr, data, headers),
      ),
    );
  }

  async createReply(
    scope: CommentScope,
    commentId: string,
    markdown: string,
    options: { idempotencyKey: string },
  ): Promise<RemoteReply> {
    const id = segment(commentId);
    const data = { body: markdownBody(markdown) };
    const headers = { headers: { 'Idempotency-Key': options.idempotencyKey } };
    return parseReply(
      await this.call(scope, (api, space, cr) =>
        cr === null
          ? api.spaces.postCommentReplyInSpace(space, id, data, headers)
          : api.spaces.postCommentReplyInChangeRequest(space, cr, id, data, {}, headers),
      ),
    );
  }

  async updateComment(
    scope: CommentScope,
    commentId: string,
    replyId: string | null,
    update: CommentUpdate,
    options: { idempotencyKey: string },
  ): Promise<void> {
    const id = segment(commentId);
    const { markdown, ...rest } = update;
    const data = { ...rest, ...(markdown !== undefined ? { body: markdownBody(markdown) } : {}) };
    const headers = { headers: { 'Idempotency-Key': options.idempotencyKey } };
    if (replyId === null) {
      await this.call(scope, (api, space, cr) =>
        cr === null
          ? api.spaces.updateCommentInSpace(space, id, data, headers)
          : api.spaces.updateCommentInChangeRequest(space, cr, id, data, headers),
      );
      return;
    }
    const reply = segment(replyId);
    await this.call(scope, (api, space, cr) =>
      cr === null
        ? api.spaces.updateCommentReplyInSpace(space, id, reply, data, headers)
        : api.spaces.updateCommentReplyInChangeRequest(space, cr, id, reply, data, headers),
    );
  }

  async deleteComment(scope: CommentScope, commentId: string, replyId: string | null) {
    const id = segment(commentId);
    try {
      if (replyId === null) {
        await this.call(scope, (api, space, cr) =>
          cr === null
            ? api.spaces.deleteCommentInSpace(space, id)
            : api.spaces.deleteCommentInChangeRequest(space, cr, id),
        );
        return;
      }
      const reply = segment(replyId);
      await this.call(scope, (api, space, cr) =>
        cr === null
          ? api.spaces.deleteCommentReplyInSpace(space, id, reply)
          : api.spaces.deleteCommentReplyInChangeRequest(space, cr, id, reply),
      );
    } catch (error) {
      // Gone already: a delete resent after a crash, or deleted on the server too.
      if (!(error instanceof RemoteNotFoundError)) throw error;
    }
  }

  private call<T>(
    scope: CommentScope,
    operation: (api: GitBookAPI, space: string, cr: string | null) => Promise<{ data: T }>,
  ): Promise<T> {
    const cr = scope.changeRequest === null ? null : segment(String(scope.changeRequest));
    return this.client.call((api) => operation(api, segment(scope.spaceId), cr));
  }
}

function listPage(value: unknown): ListPage<unknown> {
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return { items: [] };
  return value as ListPage<unknown>;
}
