import { createHash } from 'node:crypto';
import type { JSONDocument } from '@gitbook/api';
import { atLeast, type Role } from '../../auth/roles';
import { badRequest, forbidden, notFound } from '../../http/api-error';
import { listEnvelope, type PageQuery } from '../../http/paginate';
import type { ServerContext } from '../../server-context';
import { ChangeRequestQueries } from '../change-requests/change-request-queries';
import { contentReaderFor } from '../content/content-reader';
import {
  CommentQueries,
  type CommentFilter,
  type CommentPlace,
  type CommentRow,
  type ReactionRow,
  type ReplyRow,
} from './comment-queries';
import { MAX_BODY_LENGTH, MAX_REACTIONS, type CommentFormat } from './comment-schema';
import {
  serializeComment,
  serializeReply,
  type CommentCaller,
  type CommentSerializeContext,
} from './comment-serializer';
import { PageTargets } from './page-targets';

/** Path parameters of every comment route; `changeRequestId` only on change-request paths. */
export interface ScopeParams {
  spaceId: string;
  changeRequestId?: string | undefined;
}

/** Where a request's comments live and what the caller may do there. */
interface CommentScope {
  place: CommentPlace;
  caller: CommentCaller;
  /** The content comments are posted against and their pages looked up in. */
  revisionId: string;
  /** API path of the comment collection, e.g. `/spaces/s1/change-requests/<id>/comments`. */
  path: string;
}

interface MarkdownBody {
  markdown: string;
}

export interface PostCommentInput {
  body: MarkdownBody;
  page?: string | undefined;
  node?: string | undefined;
}

export interface UpdateInput {
  resolved?: boolean | undefined;
  body?: MarkdownBody | undefined;
  addedReactions?: string[] | undefined;
  removedReactions?: string[] | undefined;
}

export type ListInput = PageQuery & {
  order?: 'asc' | 'desc' | undefined;
  status?: 'all' | 'open' | 'resolved' | undefined;
  format?: CommentFormat | undefined;
  targetPage?: string | undefined;
  authors?: string[] | undefined;
};

/** A comment or reply body: Markdown with visible text, at most MAX_BODY_LENGTH UTF-8 bytes. */
function checkedBody(body: MarkdownBody): string {
  const { markdown } = body;
  if (markdown.trim() === '') throw badRequest('body.body.markdown must not be blank');
  if (Buffer.byteLength(markdown, 'utf8') > MAX_BODY_LENGTH) {
    throw badRequest(`body.body.markdown must NOT have more than ${MAX_BODY_LENGTH} bytes (UTF-8)`);
  }
  return markdown;
}

/**
 * Space comments and change-request comments: the same operations on two places, told apart by
 * the path (`changeRequestId`). Comments of one place are never found through the other's paths.
 */
export class CommentService {
  private readonly queries: CommentQueries;
  private readonly changeRequests: ChangeRequestQueries;
  private readonly targets: PageTargets;

  constructor(private readonly ctx: ServerContext) {
    this.queries = new CommentQueries(ctx.db);
    this.changeRequests = new ChangeRequestQueries(ctx.db);
    const content = contentReaderFor(ctx).queries;
    this.targets = new PageTargets((revisionId) => content.tree(revisionId));
  }

  // --- comments ---------------------------------------------------------------------------------

  async list(userId: string, params: ScopeParams, query: ListInput) {
    const scope = this.scope(userId, params);
    const filter: CommentFilter = {
      order: query.order ?? 'desc',
      status: query.status ?? 'all',
      targetPage: query.targetPage,
      authors: query.authors,
    };
    const page = this.queries.listComments(scope.place, filter, query);
    return listEnvelope(await this.comments(scope, page.rows, query.format), page.next, page.count);
  }

  async get(userId: string, params: ScopeParams, commentId: string, format?: CommentFormat) {
    const scope = this.scope(userId, params);
    return this.comment(scope, this.findComment(scope, commentId), format);
  }

  async create(
    userId: string,
    params: ScopeParams,
    input: PostCommentInput,
    format?: CommentFormat,
  ) {
    const scope = this.scope(userId, params);
    this.requireComment(scope);
    const body = checkedBody(input.body);
    if (input.page !== undefined && !this.targets.exists(scope.revisionId, input.page)) {
      throw badRequest(
        `body.page: page ${input.page} is not in the ${scope.place.changeRequestId ? "change request's" : "space's"} content`,
      );
    }
    const id = this.queries.insertComment(scope.place, {
      pageId: input.page ?? null,
      nodeId: input.node ?? null,
      revisionId: scope.revisionId,
      userId,
      body,
      now: this.now(),
    });
    return this.comment(scope, this.findComment(scope, id), format);
  }

  async update(
    userId: string,
    params: ScopeParams,
    commentId: string,
    input: UpdateInput,
    format?: CommentFormat,
  ) {
    const scope = this.scope(userId, params);
    const row = this.findComment(scope, commentId);
    this.requireComment(scope);
    if (input.body !== undefined && row.posted_by !== userId) {
      throw forbidden('Only its author can edit the text of a comment');
    }
    const body = input.body === undefined ? undefined : checkedBody(input.body);
    const now = this.now();
    this.queries.transaction(() => {
      if (body !== undefined && body !== row.body) this.queries.setCommentBody(row.id, body, now);
      if (input.resolved === true) this.queries.resolveComment(row.id, userId, now);
      if (input.resolved === false) this.queries.reopenComment(row.id);
      this.react(row.id, userId, input, now);
    });
    return this.comment(scope, this.findComment(scope, commentId), format);
  }

  remove(userId: string, params: ScopeParams, commentId: string): void {
    const scope = this.scope(userId, params);
    const row = this.findComment(scope, commentId);
    this.requireDelete(scope, row.posted_by, 'comment');
    this.queries.transaction(() => this.queries.deleteComment(row.id));
  }

  // --- replies ----------------------------------------------------------------------------------

  async listReplies(
    userId: string,
    params: ScopeParams,
    commentId: string,
    query: PageQuery & { format?: CommentFormat | undefined },
  ) {
    const scope = this.scope(userId, params);
    const comment = this.findComment(scope, commentId);
    const page = this.queries.listReplies(comment.id, query);
    return listEnvelope(
      await this.replies(scope, comment, page.rows, query.format),
      page.next,
      page.count,
    );
  }

  async getReply(
    userId: string,
    params: ScopeParams,
    commentId: string,
    replyId: string,
    format?: CommentFormat,
  ) {
    const scope = this.scope(userId, params);
    const comment = this.findComment(scope, commentId);
    return this.reply(scope, comment, this.findReply(comment, replyId), format);
  }

  async createReply(
    userId: string,
    params: ScopeParams,
    commentId: string,
    input: { body: MarkdownBody },
    format?: CommentFormat,
  ) {
    const scope = this.scope(userId, params);
    const comment = this.findComment(scope, commentId);
    this.requireComment(scope);
    const body = checkedBody(input.body);
    const id = this.queries.insertReply(comment.id, userId, body, this.now());
    return this.reply(scope, comment, this.findReply(comment, id), format);
  }

  async updateReply(
    userId: string,
    params: ScopeParams,
    commentId: string,
    replyId: string,
    input: Omit<UpdateInput, 'resolved'>,
    format?: CommentFormat,
  ) {
    const scope = this.scope(userId, params);
    const comment = this.findComment(scope, commentId);
    const row = this.findReply(comment, replyId);
    this.requireComment(scope);
    if (input.body !== undefined && row.posted_by !== userId) {
      throw forbidden('Only its author can edit the text of a reply');
    }
    const body = input.body === undefined ? undefined : checkedBody(input.body);
    const now = this.now();
    this.queries.transaction(() => {
      if (body !== undefined && body !== row.body) this.queries.setReplyBody(row.id, body, now);
      this.react(row.id, userId, input, now);
    });
    return this.reply(scope, comment, this.findReply(comment, replyId), format);
  }

  removeReply(userId: string, params: ScopeParams, commentId: string, replyId: string): void {
    const scope = this.scope(userId, params);
    const comment = this.findComment(scope, commentId);
    const row = this.findReply(comment, replyId);
    this.requireDelete(scope, row.posted_by, 'reply');
    this.queries.transaction(() => this.queries.deleteReply(row.id));
  }

  // --- internals --------------------------------------------------------------------------------

  /** 404 unless the caller may read the space (and the change request exists in it). */
  private scope(userId: string, params: ScopeParams): CommentScope {
    const { spaceId, changeRequestId } = params;
    const access = this.ctx.access.requireSpace(userId, spaceId, 'read');
    const caller = callerFor(userId, access.role);
    if (changeRequestId === undefined) {
      const revisionId = this.queries.spaceRevision(spaceId);
      if (revisionId === undefined) throw notFound(`Space ${spaceId}`);
      return {
        place: { spaceId, changeRequestId: null },
        caller,
        revisionId,
        path: `/spaces/${spaceId}/comments`,
      };
    }
    const changeRequest = this.changeRequests.find(spaceId, changeRequestId);
    if (!changeRequest) throw notFound(`Change request ${changeRequestId}`);
    return {
      place: { spaceId, changeRequestId: changeRequest.id },
      caller,
      revisionId: changeRequest.revision_id,
      path: `/spaces/${spaceId}/change-requests/${changeRequest.id}/comments`,
    };
  }

  private findComment(scope: CommentScope, commentId: string): CommentRow {
    const row = this.queries.comment(scope.place, commentId);
    if (!row) throw notFound(`Comment ${commentId}`);
    return row;
  }

  private findReply(comment: CommentRow, replyId: string): ReplyRow {
    const row = this.queries.reply(comment.id, replyId);
    if (!row) throw notFound(`Comment reply ${replyId}`);
    return row;
  }

  private requireComment(scope: CommentScope): void {
    if (!scope.caller.canComment) {
      throw forbidden(`This needs the comment role on space ${scope.place.spaceId}`);
    }
  }

  private requireDelete(scope: CommentScope, authorId: string, what: 'comment' | 'reply'): void {
    this.requireComment(scope);
    if (authorId !== scope.caller.userId && !scope.caller.isAdmin) {
      throw forbidden(`Only its author or a space admin can delete a ${what}`);
    }
  }

  /**
   * The caller's reactions: added ones first, then removed ones (an emoji in both lists ends up
   * removed). Adding one twice is a no-op; one user holds at most MAX_REACTIONS per target.
   */
  private react(targetId: string, userId: string, input: UpdateInput, now: string): void {
    if (input.addedReactions?.length) {
      this.queries.addReactions(targetId, userId, input.addedReactions, now);
    }
    if (input.removedReactions?.length) {
      this.queries.removeReactions(targetId, userId, input.removedReactions);
    }
    if (
      input.addedReactions?.length &&
      this.queries.reactionCount(targetId, userId) > MAX_REACTIONS
    ) {
      // Thrown inside the transaction: nothing of this update is kept.
      throw badRequest(
        `body.addedReactions: a user can hold at most ${MAX_REACTIONS} reactions on one comment or reply`,
      );
    }
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }

  private async comment(scope: CommentScope, row: CommentRow, format: CommentFormat | undefined) {
    return (await this.comments(scope, [row], format))[0]!;
  }

  /** Serialises a page of comments with a fixed number of statements, whatever its size. */
  private async comments(scope: CommentScope, rows: readonly CommentRow[], format?: CommentFormat) {
    const ids = rows.map((row) => row.id);
    const repliers = groupBy(this.queries.repliers(ids), (row) => row.comment_id);
    const reactions = groupBy(this.queries.reactions(ids), (row) => row.target_id);
    const userIds = new Set<string>();
    for (const row of rows) {
      userIds.add(row.posted_by);
      if (row.resolved_by) userIds.add(row.resolved_by);
    }
    for (const list of repliers.values()) for (const r of list) userIds.add(r.user_id);
    addReactionUsers(reactions, userIds);
    const ctx = await this.serializeContext(scope, format, reactions, userIds, rows);
    return rows.map((row) =>
      serializeComment(
        {
          row,
          path: `${scope.path}/${row.id}`,
          page: row.page_id
            ? this.targets.target(row.page_id, row.revision_id, scope.revisionId)
            : undefined,
          repliers: repliers.get(row.id) ?? [],
        },
        ctx,
      ),
    );
  }

  private async reply(
    scope: CommentScope,
    comment: CommentRow,
    row: ReplyRow,
    format: CommentFormat | undefined,
  ) {
    return (await this.replies(scope, comment, [row], format))[0]!;
  }

  private async replies(
    scope: CommentScope,
    comment: CommentRow,
    rows: readonly ReplyRow[],
    format?: CommentFormat,
  ) {
    const reactions = groupBy(
      this.queries.reactions(rows.map((row) => row.id)),
      (row) => row.target_id,
    );
    const userIds = new Set(rows.map((row) => row.posted_by));
    addReactionUsers(reactions, userIds);
    const ctx = await this.serializeContext(scope, format, reactions, userIds, rows);
    return rows.map((row) =>
      serializeReply(row, `${scope.path}/${comment.id}/replies/${row.id}`, ctx),
    );
  }

  /** With `format=document`, every body is converted first, on the worker threads. */
  private async serializeContext(
    scope: CommentScope,
    format: CommentFormat | undefined,
    reactions: Map<string, ReactionRow[]>,
    userIds: Set<string>,
    rows: readonly { id: string; body: string }[],
  ): Promise<CommentSerializeContext> {
    const documents =
      format === 'document'
        ? await this.ctx.markdown.commentDocuments(
            rows.map((row) => ({ key: bodyKey(row.body), markdown: row.body, label: row.id })),
          )
        : new Map<string, JSONDocument>();
    return {
      urls: this.ctx.urls,
      caller: scope.caller,
      // Markdown unless asked otherwise: the spec's Comment body is `{ markdown }`.
      format: format ?? 'markdown',
      users: this.queries.users(userIds),
      reactions,
      document: (markdown) => documents.get(bodyKey(markdown))!,
    };
  }
}

/** What a comment body's document is cached under: its content. */
function bodyKey(markdown: string): string {
  return createHash('sha256').update(markdown).digest('base64url');
}

function callerFor(userId: string, role: Role | null): CommentCaller {
  return { userId, canComment: atLeast(role, 'comment'), isAdmin: atLeast(role, 'admin') };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function addReactionUsers(reactions: Map<string, ReactionRow[]>, into: Set<string>): void {
  for (const list of reactions.values()) for (const row of list) into.add(row.user_id);
}
