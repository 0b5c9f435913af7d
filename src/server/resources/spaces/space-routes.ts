import { Type } from '@sinclair/typebox';
import { RevisionStore } from '../../content/revision-store';
import { badRequest, conflict, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import {
  ListSchema,
  PageQuerySchema,
  errorResponses,
  noContentResponses,
} from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { newId } from '../../ids';
import type { ServerContext } from '../../server-context';
import { CollectionQueries } from '../collections/collection-queries';
import { endPosition, placeItem } from './content-position';
import { copyTitle } from './copy-title';
import { SpaceQueries } from './space-queries';
import {
  CreateSpaceBody,
  GetSpaceQuery,
  MoveBody,
  OrgParams,
  SpaceParams,
  SpaceSchema,
  TransferBody,
  UpdateSpaceBody,
} from './space-schema';
import {
  countsOf,
  serializeSpace,
  spaceCounts,
  type SpaceCountColumns,
  type SpaceRow,
} from './space-serializer';

export const DEFAULT_SPACE_TITLE = 'Untitled';

export function spaceRoutes(app: TypedApp, ctx: ServerContext): void {
  const { access, urls, db } = ctx;
  const queries = new SpaceQueries(db);
  const collections = new CollectionQueries(db);
  const store = new RevisionStore(db);
  const now = () => ctx.clock.now().toISOString();

  /** The space as the caller sees it now (after a change). */
  const present = (userId: string, spaceId: string, shareKey?: string) => {
    const row = queries.get(spaceId);
    if (!row) throw notFound(`Space ${spaceId}`);
    return serializeSpace(
      row,
      access.roleOnSpace(userId, row),
      spaceCounts(db, row.id),
      urls,
      shareKey,
    );
  };

  /** A collection named in a body must exist in the organization concerned; otherwise 400. */
  /** GET /v1/spaces/{id}: also answered by ctx.fastReads, so both paths share this function. */
  const readSpace = (spaceId: string, userId: string, shareKey?: string) => {
    // One statement loads the space, the caller's access and the counts shown.
    const row = queries.getForCaller(spaceId, userId);
    const { role } = access.checkSpace(spaceId, row, 'read');
    // checkSpace answered 404 if there is no such space.
    return serializeSpace(row!, role, countsOf(row!), urls, shareKey);
  };
  ctx.fastReads.add('/v1/spaces/', (spaceId, userId) => readSpace(spaceId, userId));

  const requireParent = (field: string, collectionId: string, organizationId: string) => {
    const collection = collections.get(collectionId);
    if (!collection || collection.organization_id !== organizationId) {
      throw badRequest(
        `${field} must be a collection of organization ${organizationId}; ${collectionId} is not`,
      );
    }
  };

  const loadSpace = (spaceId: string): SpaceRow => {
    const row = queries.get(spaceId);
    if (!row) throw notFound(`Space ${spaceId}`);
    return row;
  };

  app.get(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        params: OrgParams,
        querystring: Type.Object(PageQuerySchema),
        response: { 200: ListSchema(SpaceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId);
      const page = paginate<SpaceRow & SpaceCountColumns>(
        db,
        queries.listQuery({ organizationId, userId, guest: membership.role === null }),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) =>
          serializeSpace(row, access.roleOnSpace(userId, row), countsOf(row), urls),
        ),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        params: OrgParams,
        body: CreateSpaceBody,
        response: { 201: SpaceSchema, ...errorResponses },
      },
      // The published API makes the body optional: no body means all defaults.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      access.requireOrg(userId, organizationId, 'create');
      const body = request.body;
      const parentId = body.parent ?? null;
      if (parentId) requireParent('body.parent', parentId, organizationId);
      const id = newId();
      const at = now();
      db.transaction(() => {
        queries.insert({
          id,
          organization_id: organizationId,
          title: body.title ?? DEFAULT_SPACE_TITLE,
          emoji: body.emoji ?? '',
          // Like GitBook, a space created in a collection inherits the collection's audience.
          visibility: parentId ? 'in-collection' : 'private',
          edit_mode: body.editMode ?? 'live',
          parent_id: parentId,
          default_level: null,
          share_key: newId(),
          position: endPosition(db, organizationId, parentId),
          created_at: at,
          updated_at: at,
          deleted_at: null,
        });
        queries.setRevision(id, store.create(id, { pages: [], files: [] }, [], 'edits', at));
      })();
      return reply
        .code(201)
        .header('location', urls.api(`/spaces/${id}`))
        .send(present(userId, id));
    },
  );

  app.get(
    '/v1/spaces/:spaceId',
    {
      schema: {
        params: SpaceParams,
        querystring: GetSpaceQuery,
        response: { 200: SpaceSchema, ...errorResponses },
      },
    },
    async (request) =>
      readSpace(request.params.spaceId, callerOf(request).userId, request.query.shareKey),
  );

  app.patch(
    '/v1/spaces/:spaceId',
    {
      schema: {
        params: SpaceParams,
        body: UpdateSpaceBody,
        response: { 200: SpaceSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      access.requireSpace(userId, spaceId, 'admin');
      const row = loadSpace(spaceId);
      const body = request.body;
      if (body.visibility === 'in-collection' && !row.parent_id) {
        throw badRequest(
          'body.visibility in-collection is only allowed for a space in a collection',
        );
      }
      queries.update(
        spaceId,
        {
          title: body.title,
          // null removes the emoji (the published API's `{ emoji: null }`).
          emoji: body.emoji === null ? '' : body.emoji,
          editMode: body.editMode,
          defaultLevel: body.defaultLevel,
          visibility: body.visibility,
        },
        now(),
      );
      return present(userId, spaceId);
    },
  );

  app.delete(
    '/v1/spaces/:spaceId',
    {
      schema: { params: SpaceParams, response: { ...noContentResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      access.requireSpace(userId, spaceId, 'admin');
      queries.setDeletedAt(spaceId, now());
      return reply.code(205).send(undefined);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/restore',
    { schema: { params: SpaceParams, response: { 200: SpaceSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      access.requireSpace(userId, spaceId, 'admin', { includeDeleted: true });
      const row = loadSpace(spaceId);
      if (!row.deleted_at) throw conflict(`Space ${spaceId} is not deleted`);
      // Past the retention period the space is gone even if the sweep has not run yet.
      const age = ctx.clock.now().getTime() - new Date(row.deleted_at).getTime();
      if (age >= ctx.config.trashRetentionMs) {
        throw notFound(`Space ${spaceId}`);
      }
      queries.setDeletedAt(spaceId, null);
      return present(userId, spaceId);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/duplicate',
    { schema: { params: SpaceParams, response: { 201: SpaceSchema, ...errorResponses } } },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      const { organizationId } = access.requireSpace(userId, spaceId, 'read');
      access.requireOrg(userId, organizationId, 'create');
      const source = loadSpace(spaceId);
      const id = newId();
      const at = now();
      db.transaction(() => {
        queries.insert({
          ...source,
          id,
          title: copyTitle(source.title),
          // A fresh secret: a share link to the original must not open the copy.
          share_key: newId(),
          position: placeItem(db, { type: 'space', id }, organizationId, source.parent_id, {
            after: { type: 'space', space: spaceId },
          }),
          created_at: at,
          updated_at: at,
          deleted_at: null,
        });
        // Bodies and blobs are content-addressed: the copy's tree points at the same ones.
        const tree = store.tree(source.revision_id) ?? { pages: [], files: [] };
        queries.setRevision(id, store.create(id, tree, [], 'edits', at));
        queries.copyGrantsAndValues(spaceId, id);
      })();
      return reply
        .code(201)
        .header('location', urls.api(`/spaces/${id}`))
        .send(present(userId, id));
    },
  );

  app.post(
    '/v1/spaces/:spaceId/move',
    {
      schema: {
        params: SpaceParams,
        body: MoveBody,
        response: { 200: SpaceSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      const { organizationId } = access.requireSpace(userId, spaceId, 'read');
      access.requireOrg(userId, organizationId, 'create');
      const row = loadSpace(spaceId);
      const body = request.body;
      const parentId = body.parent === undefined ? row.parent_id : body.parent;
      if (parentId) requireParent('body.parent', parentId, organizationId);
      db.transaction(() => {
        const position = placeItem(
          db,
          { type: 'space', id: spaceId },
          organizationId,
          parentId,
          body.position,
        );
        queries.setParent(spaceId, parentId, position, now());
      })();
      return present(userId, spaceId);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/transfer',
    {
      schema: {
        params: SpaceParams,
        body: TransferBody,
        response: { 200: SpaceSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      const { organization: target, collection } = request.body;
      const { organizationId: source } = access.requireSpace(userId, spaceId, 'read');
      access.requireOrg(userId, source, 'admin');
      access.requireOrg(userId, target, 'admin');
      if (collection) requireParent('body.collection', collection, target);
      const parentId = collection ?? null;
      db.transaction(() => {
        const at = now();
        if (target !== source) {
          queries.setOrganization(spaceId, target, at);
          queries.dropOrganizationData(spaceId);
        }
        const position = placeItem(db, { type: 'space', id: spaceId }, target, parentId, undefined);
        queries.setParent(spaceId, parentId, position, at);
      })();
      return present(userId, spaceId);
    },
  );
}
