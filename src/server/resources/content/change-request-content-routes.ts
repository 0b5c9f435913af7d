import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReaderFor } from './content-reader';
import {
  ChangeRequestFileParams,
  ChangeRequestPageParams,
  ChangeRequestParams,
  ChangeRequestPathParams,
  ChangesQuery,
  ChangesSchema,
  FileQuery,
  FileSchema,
  FilesQuery,
  PageQuery,
  PageSchema,
  PagesQuery,
  PagesSchema,
  PreSerialized,
  RevisionQuery,
  RevisionSchema,
} from './content-schema';
import { JSON_TYPE } from './json-response-cache';

/**
 * Reading a change request's content (its current revision) and what it changes. `{CR}` is the
 * change request's id or its number. The content writes (POST …/content, …/content/import) live
 * in their own module.
 */
export function changeRequestContentRoutes(app: TypedApp, ctx: ServerContext): void {
  const reader = contentReaderFor(ctx);
  const prefix = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

  app.get(
    `${prefix}/content`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: RevisionQuery,
        response: { 200: PreSerialized(RevisionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      return reply.type(JSON_TYPE).send(reader.revisionBytes(source, request.query.format));
    },
  );

  app.get(
    `${prefix}/content/pages`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: PagesQuery,
        response: { 200: PreSerialized(PagesSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      return reply.type(JSON_TYPE).send(reader.pagesBytes(source));
    },
  );

  app.get(
    `${prefix}/content/page/:pageId`,
    {
      schema: {
        params: ChangeRequestPageParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      return reply.type(JSON_TYPE).send(reader.pageByIdBytes(source, pageId, request.query.format));
    },
  );

  app.get(
    `${prefix}/content/path/*`,
    {
      schema: {
        params: ChangeRequestPathParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      const bytes = reader.pageByPathBytes(source, request.params['*'], request.query.format);
      return reply.type(JSON_TYPE).send(bytes);
    },
  );

  app.get(
    `${prefix}/content/files`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: FilesQuery,
        response: { 200: ListSchema(FileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      return reader.files(source, request.query);
    },
  );

  app.get(
    `${prefix}/content/files/:fileId`,
    {
      schema: {
        params: ChangeRequestFileParams,
        querystring: FileQuery,
        response: { 200: FileSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      const source = reader.changeRequestSource(callerOf(request).userId, spaceId, changeRequestId);
      return reader.fileById(source, fileId);
    },
  );

  app.get(
    `${prefix}/changes`,
    {
      schema: {
        params: ChangeRequestParams,
        querystring: ChangesQuery,
        response: { 200: ChangesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const userId = callerOf(request).userId;
      return reader.changeRequestChanges(userId, spaceId, changeRequestId, request.query.limit);
    },
  );
}
