import { Type } from '@sinclair/typebox';
import { badRequest, conflict } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import {
  BooleanQuery,
  ListSchema,
  PageQuerySchema,
  errorResponses,
  noContentResponses,
} from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { newId } from '../../ids';
import type { ServerContext } from '../../server-context';
import { endPosition, placeItem, siblingsOf } from '../spaces/content-position';
import { SpaceQueries } from '../spaces/space-queries';
import { SpaceSchema } from '../spaces/space-schema';
import {
  countsOf,
  serializeSpace,
  type SpaceCountColumns,
  type SpaceRow,
} from '../spaces/space-serializer';
import { collectionRole, requireCollection } from './collection-access';
import { CollectionQueries, type CollectionRow } from './collection-queries';
import {
  CollectionParams,
  CollectionSchema,
  CreateCollectionBody,
  MoveCollectionBody,
  TransferCollectionBody,
  UpdateCollectionBody,
} from './collection-schema';
import { serializeCollection } from './collection-serializer';

export const DEFAULT_COLLECTION_TITLE = 'Untitled collection';

const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });

export function collectionRoutes(app: TypedApp, ctx: ServerContext): void {
  const { access, urls, db } = ctx;
  const queries = new CollectionQueries(db);
  const spaces = new SpaceQueries(db);
  const now = () => ctx.clock.now().toISOString();

  /** The collection as the caller sees it now (after a change). */
  const present = (userId: string, collectionId: string) => {
    const { row, role } = requireCollection(access, queries, userId, collectionId);
    return serializeCollection(row, role, urls);
  };

  /** A parent named in a body must be a collection of the organization concerned; else 400. */
  const requireParent = (collectionId: string, organizationId: string): CollectionRow => {
    const parent = queries.get(collectionId);
    if (!parent || parent.organization_id !== organizationId) {
      throw badRequest(
        `body.parent must be a collection of organization ${organizationId}; ${collectionId} is not`,
      );
    }
    return parent;
  };

  app.get(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        params: OrgParams,
        querystring: Type.Object({
          ...PageQuerySchema,
          nested: Type.Optional(BooleanQuery),
        }),
        response: { 200: ListSchema(CollectionSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId, 'read');
      const { nested = true, ...pageQuery } = request.query;
      const page = paginate<CollectionRow>(
        db,
        queries.listQuery(organizationId, nested),
        pageQuery,
      );
      return listEnvelope(
        page.rows.map((row) => serializeCollection(row, collectionRole(membership.role), urls)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        params: OrgParams,
        body: CreateCollectionBody,
        response: { 201: CollectionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      access.requireOrg(userId, organizationId, 'create');
      const { title, parent } = request.body;
      const parentId = parent ?? null;
      if (parentId) requireParent(parentId, organizationId);
      const id = newId();
      queries.insert({
        id,
        organization_id: organizationId,
        title: title ?? DEFAULT_COLLECTION_TITLE,
        description: null,
        parent_id: parentId,
        default_level: null,
        position: endPosition(db, organizationId, parentId),
        created_at: now(),
      });
      return reply
        .code(201)
        .header('location', urls.api(`/collections/${id}`))
        .send(present(userId, id));
    },
  );

  app.get(
    '/v1/collections/:collectionId',
    {
      schema: { params: CollectionParams, response: { 200: CollectionSchema, ...errorResponses } },
    },
    async (request) => present(callerOf(request).userId, request.params.collectionId),
  );

  app.patch(
    '/v1/collections/:collectionId',
    {
      schema: {
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: CollectionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collectionId } = request.params;
      requireCollection(access, queries, userId, collectionId, 'admin');
      queries.update(collectionId, request.body);
      return present(userId, collectionId);
    },
  );

  app.delete(
    '/v1/collections/:collectionId',
    {
      schema: {
        params: CollectionParams,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { collectionId } = request.params;
      const { row } = requireCollection(access, queries, userId, collectionId, 'admin');
      const parentId = row.parent_id;
      const org = row.organization_id;
      // Deleting a collection never deletes content: what it holds moves up to its parent (or
      // the root), after the parent's own items and in its existing order.
      db.transaction(() => {
        const at = now();
        let position = endPosition(db, org, parentId);
        for (const child of siblingsOf(db, org, collectionId)) {
          if (child.type === 'collection') queries.setParent(child.id, parentId, position);
          else spaces.setParent(child.id, parentId, position, at);
          position += 1;
        }
        // Deleted spaces follow too, so a restore finds them in a collection that exists.
        for (const spaceId of queries.spaceIdsIn([collectionId])) {
          const space = spaces.get(spaceId);
          if (space) spaces.setParent(spaceId, parentId, space.position, at);
        }
        queries.delete(collectionId);
      })();
      return reply.code(205).send(undefined);
    },
  );

  app.get(
    '/v1/collections/:collectionId/spaces',
    {
      schema: {
        params: CollectionParams,
        querystring: Type.Object(PageQuerySchema),
        response: { 200: ListSchema(SpaceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collectionId } = request.params;
      const { row } = requireCollection(access, queries, userId, collectionId, 'read');
      const page = paginate<SpaceRow & SpaceCountColumns>(
        db,
        spaces.listQuery({
          organizationId: row.organization_id,
          userId,
          guest: false,
          collectionId,
        }),
        request.query,
      );
      return listEnvelope(
        page.rows.map((space) =>
          serializeSpace(space, access.roleOnSpace(userId, space), countsOf(space), urls),
        ),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/collections/:collectionId/move',
    {
      schema: {
        params: CollectionParams,
        body: MoveCollectionBody,
        response: { 200: CollectionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collectionId } = request.params;
      const { row } = requireCollection(access, queries, userId, collectionId, 'read');
      access.requireOrg(userId, row.organization_id, 'create');
      const body = request.body;
      const parentId = body.parent === undefined ? row.parent_id : body.parent;
      if (parentId) {
        requireParent(parentId, row.organization_id);
        if (queries.subtreeIds(collectionId).includes(parentId)) {
          throw badRequest(
            `body.parent cannot be collection ${parentId}: it is ${collectionId} itself or inside it`,
          );
        }
      }
      db.transaction(() => {
        const position = placeItem(
          db,
          { type: 'collection', id: collectionId },
          row.organization_id,
          parentId,
          body.position,
        );
        queries.setParent(collectionId, parentId, position);
      })();
      return present(userId, collectionId);
    },
  );

  app.post(
    '/v1/collections/:collectionId/transfer',
    {
      schema: {
        params: CollectionParams,
        body: TransferCollectionBody,
        response: { 200: CollectionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collectionId } = request.params;
      const target = request.body.organization;
      const { row } = requireCollection(access, queries, userId, collectionId, 'read');
      access.requireOrg(userId, row.organization_id, 'admin');
      access.requireOrg(userId, target, 'admin');
      if (target === row.organization_id) {
        throw conflict(`Collection ${collectionId} already belongs to organization ${target}`);
      }
      db.transaction(() => {
        const at = now();
        const collectionIds = queries.subtreeIds(collectionId);
        // Nested collections and every space in them (deleted ones too) go along.
        for (const spaceId of queries.spaceIdsIn(collectionIds)) {
          spaces.setOrganization(spaceId, target, at);
          spaces.dropOrganizationData(spaceId);
        }
        queries.setOrganization(collectionIds, target);
        queries.setParent(collectionId, null, endPosition(db, target, null));
      })();
      return present(userId, collectionId);
    },
  );
}
