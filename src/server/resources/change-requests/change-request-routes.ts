import { Type } from '@sinclair/typebox';
import type { SpaceAccess } from '../../auth/access';
import { atLeast, type Role } from '../../auth/roles';
import { badRequest, conflict, forbidden, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import {
  ListSchema,
  PageQuerySchema,
  errorResponses,
  noContentResponses,
} from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { CommentQueries } from '../comments/comment-queries';
import { changeRequestContentWriteRoutes } from '../content/change-request-content-write-routes';
import { ChangeRequestMerger } from './change-request-merge';
import { requireActive } from './require-active';
import { changeRequestPdfRoutes } from './change-request-pdf-routes';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
  type RequestedReviewerRow,
  type ReviewRow,
} from './change-request-queries';
import {
  ChangeRequestParams,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  ListReviewsQuery,
  MergeResultSchema,
  RequestReviewersBody,
  RequestReviewersResponse,
  RequestedReviewerSchema,
  ReviewParams,
  ReviewQuery,
  ReviewSchema,
  ReviewerParams,
  SpaceParams,
  SubmitReviewBody,
  UpdateChangeRequestBody,
  UpdateResultSchema,
} from './change-request-schema';
import {
  ChangeRequestSchema,
  presentChangeRequest,
  serializeRequestedReviewer,
  serializeReview,
} from './change-request-serializer';

/** Checks access to the space, then finds the change request (404 when unknown). */
export type LoadChangeRequest = (
  userId: string,
  spaceId: string,
  ref: string,
  needed: Role,
) => { space: SpaceAccess; row: ChangeRequestRow };

/**
 * Change requests of a space: list, create, read, patch, merge, update from main, PDF, reviews
 * and requested reviewers. `{CR}` is the change request id or its number in the space.
 *
 * Roles: reading needs `read` on the space; creating, writing content, updating from main and
 * asking for reviews need `edit`; patching needs `edit` and to be the creator or `review`+;
 * merging needs `review` (the space's `permissions.merge`); reviewing needs `review`, or `comment`
 * for someone asked to review. Nobody reviews their own change request.
 */
export function changeRequestRoutes(app: TypedApp, ctx: ServerContext): void {
  const { access, db, urls } = ctx;
  const queries = new ChangeRequestQueries(db);
  const comments = new CommentQueries(db);
  const merger = new ChangeRequestMerger(ctx);
  const now = () => ctx.clock.now().toISOString();
  const present = (row: ChangeRequestRow) => presentChangeRequest(queries, row, urls);
  const prefix = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

  /** The space (404 / 403 by role) and then the change request (404). */
  const load: LoadChangeRequest = (userId, spaceId, ref, needed) => {
    const space = access.requireSpace(userId, spaceId, needed);
    const row = queries.find(spaceId, ref);
    if (!row) throw notFound(`Change request ${ref}`);
    return { space, row };
  };
  const reload = (row: ChangeRequestRow) => queries.find(row.space_id, row.id)!;

  app.get(
    '/v1/spaces/:spaceId/change-requests',
    {
      schema: {
        params: SpaceParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: ListSchema(ChangeRequestSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId } = request.params;
      access.requireSpace(callerOf(request).userId, spaceId, 'read');
      const query = request.query;
      const page = paginate<ChangeRequestRow>(
        db,
        queries.listQuery({
          spaceId,
          status: query.status ?? 'open',
          creator: query.creator,
          contributor: query.contributor,
          requestedReviewer: query.requestedReviewer,
          orderBy: query.orderBy ?? 'updatedAt',
        }),
        query,
      );
      return listEnvelope(page.rows.map(present), page.next, page.count);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/change-requests',
    {
      schema: {
        params: SpaceParams,
        body: CreateChangeRequestBody,
        response: { 201: ChangeRequestSchema, ...errorResponses },
      },
      // The published client always sends a body, but `{}` and no body mean the same.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      access.requireSpace(userId, spaceId, 'edit');
      if (request.body.template !== undefined) {
        throw badRequest('body.template is not supported: this server has no space templates');
      }
      const row = db.transaction(() => {
        const revision = queries.spaceRevision(spaceId);
        if (!revision) throw notFound(`Space ${spaceId}`);
        return queries.create(spaceId, userId, request.body.subject ?? '', revision, now());
      })();
      return reply
        .code(201)
        .header('location', urls.api(`/spaces/${spaceId}/change-requests/${row.id}`))
        .send(present(row));
    },
  );

  app.get(
    prefix,
    {
      schema: {
        params: ChangeRequestParams,
        response: { 200: ChangeRequestSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return present(load(callerOf(request).userId, spaceId, changeRequestId, 'read').row);
    },
  );

  app.patch(
    prefix,
    {
      schema: {
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequestSchema, ...errorResponses, ...noContentResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const { space, row } = load(userId, spaceId, changeRequestId, 'edit');
      if (row.created_by !== userId && !atLeast(space.role, 'review')) {
        throw forbidden(
          `Only the creator of change request ${row.number} or a reviewer of space ${spaceId} may change it`,
        );
      }
      const { subject, status } = request.body;
      const updated = db.transaction(() => {
        const current = reload(row);
        if (status !== undefined && status !== current.status && current.status === 'merged') {
          throw conflict(`Change request ${current.number} is merged: its status cannot change`);
        }
        if (subject !== undefined || status !== undefined) {
          queries.update(current.id, { subject, status }, now());
        }
        return reload(current);
      })();
      // `Prefer: return=minimal` (published): no representation.
      if (/return=minimal/i.test(String(request.headers['prefer'] ?? ''))) {
        return reply.code(204).header('preference-applied', 'return=minimal').send(undefined);
      }
      return present(updated);
    },
  );

  app.post(
    `${prefix}/merge`,
    {
      schema: {
        params: ChangeRequestParams,
        response: { 200: MergeResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(userId, spaceId, changeRequestId, 'review');
      const bodies = await merger.prepare(row, 'merge');
      return db.transaction(() => {
        const current = reload(row);
        requireActive(current, 'merged');
        if (queries.spaceEditMode(spaceId) === 'locked') {
          throw forbidden(
            `Space ${spaceId} is locked (editMode "locked"): set editMode to "live" to merge change requests`,
          );
        }
        return merger.merge(current, userId, now(), bodies);
      })();
    },
  );

  app.post(
    `${prefix}/update`,
    {
      schema: {
        params: ChangeRequestParams,
        response: { 200: UpdateResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(userId, spaceId, changeRequestId, 'edit');
      const bodies = await merger.prepare(row, 'update');
      return db.transaction(() => {
        const current = reload(row);
        requireActive(current, 'updated');
        const outcome = merger.update(current, now(), bodies);
        if (outcome.result === 'update') queries.addContributor(current.id, userId);
        return outcome;
      })();
    },
  );

  // --- reviews ----------------------------------------------------------------------------------

  const reviewOf = (row: ReviewRow, spaceId: string) =>
    serializeReview(row, queries.user(row.reviewer_id), spaceId, urls);

  app.get(
    `${prefix}/reviews`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: ListReviewsQuery,
        response: { 200: ListSchema(ReviewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(callerOf(request).userId, spaceId, changeRequestId, 'read');
      const page = paginate<ReviewRow>(
        db,
        queries.reviewsQuery(row.id, request.query.outdated),
        request.query,
      );
      return listEnvelope(
        page.rows.map((review) => reviewOf(review, spaceId)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    `${prefix}/reviews`,
    {
      schema: {
        params: ChangeRequestParams,
        body: SubmitReviewBody,
        response: { 201: ReviewSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const { space, row } = load(userId, spaceId, changeRequestId, 'comment');
      if (row.created_by === userId) {
        throw forbidden('You cannot review your own change request');
      }
      if (!atLeast(space.role, 'review') && !queries.requestedReviewer(row.id, userId)) {
        throw forbidden(
          `Reviewing needs the review role on space ${spaceId}, or to be asked to review this change request`,
        );
      }
      const comment = request.body.comment;
      if (comment && 'document' in comment) {
        throw badRequest('body.comment must be { markdown }: JSON documents are not supported');
      }
      const review = db.transaction(() => {
        const current = reload(row);
        requireActive(current, 'reviewed');
        const at = now();
        const id = queries.insertReview(
          current.id,
          userId,
          request.body.status,
          current.revision_id,
          at,
        );
        // The request is answered; the change request shows activity (clients refetch on it).
        queries.removeRequestedReviewer(current.id, userId);
        queries.update(current.id, {}, at);
        if (comment && 'markdown' in comment && typeof comment.markdown === 'string') {
          comments.insertComment(
            { spaceId, changeRequestId: current.id },
            {
              pageId: null,
              nodeId: null,
              revisionId: current.revision_id,
              userId,
              body: comment.markdown,
              now: at,
            },
          );
        }
        return queries.review(current.id, id)!;
      })();
      const body = reviewOf(review, spaceId);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    `${prefix}/reviews/:reviewId`,
    {
      schema: {
        params: ReviewParams,
        querystring: ReviewQuery,
        response: { 200: ReviewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, reviewId } = request.params;
      const { row } = load(callerOf(request).userId, spaceId, changeRequestId, 'read');
      const review = queries.review(row.id, reviewId);
      if (!review) throw notFound(`Review ${reviewId}`);
      return reviewOf(review, spaceId);
    },
  );

  // --- requested reviewers ----------------------------------------------------------------------

  const requestedOf = (row: ChangeRequestRow, request: RequestedReviewerRow) =>
    serializeRequestedReviewer(
      {
        row: request,
        user: queries.user(request.user_id),
        requestedBy: queries.user(row.created_by),
        revision: row.revision_id,
      },
      urls,
    );

  app.get(
    `${prefix}/requested-reviewers`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: Type.Object(PageQuerySchema),
        response: { 200: ListSchema(RequestedReviewerSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(callerOf(request).userId, spaceId, changeRequestId, 'read');
      const page = paginate<RequestedReviewerRow>(
        db,
        queries.requestedReviewersQuery(row.id),
        request.query,
      );
      return listEnvelope(
        page.rows.map((item) => requestedOf(row, item)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    `${prefix}/requested-reviewers`,
    {
      schema: {
        params: ChangeRequestParams,
        body: RequestReviewersBody,
        response: { 200: RequestReviewersResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId, changeRequestId } = request.params;
      const { row } = load(userId, spaceId, changeRequestId, 'edit');
      const users = [...new Set(request.body.users)];
      users.forEach((reviewer, index) => {
        if (reviewer === row.created_by) {
          throw badRequest(
            `body.users.${index}: ${reviewer} created this change request and cannot review it`,
          );
        }
        try {
          access.requireSpace(reviewer, spaceId, 'comment');
        } catch {
          throw badRequest(
            `body.users.${index}: ${reviewer} is not a user who can comment on space ${spaceId}`,
          );
        }
      });
      const requested = db.transaction(() => {
        const current = reload(row);
        requireActive(current, 'reviewed');
        const at = now();
        for (const reviewer of users) queries.requestReviewer(current.id, reviewer, at);
        queries.update(current.id, { subject: request.body.subject }, at);
        return users.map((reviewer) => queries.requestedReviewer(current.id, reviewer)!);
      })();
      const current = reload(row);
      return { users: requested.map((item) => requestedOf(current, item)) };
    },
  );

  app.delete(
    `${prefix}/requested-reviewers/:userId`,
    {
      schema: {
        params: ReviewerParams,
        response: { ...errorResponses, ...noContentResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, userId: reviewer } = request.params;
      const { row } = load(callerOf(request).userId, spaceId, changeRequestId, 'edit');
      // Published: 205 when removed, 204 when that user was not a requested reviewer.
      const removed = db.transaction(() => {
        const done = queries.removeRequestedReviewer(row.id, reviewer);
        if (done) queries.update(row.id, {}, now());
        return done;
      })();
      return reply.code(removed ? 205 : 204).send(undefined);
    },
  );

  changeRequestPdfRoutes(app, ctx, load);
  changeRequestContentWriteRoutes(app, ctx);
}
