import { Type } from '@sinclair/typebox';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReaderFor } from './content-reader';
import {
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
  RevisionFileParams,
  RevisionPageParams,
  RevisionParams,
  RevisionPathParams,
  RevisionQuery,
  RevisionSchema,
  SpaceFileParams,
  SpacePageParams,
  SpaceParams,
  SpacePathParams,
} from './content-schema';
import { fileDownloadRoutes } from './file-download-routes';
import { JSON_TYPE } from './json-response-cache';

const DocumentSchema = Type.Object({
  object: Type.Literal('document'),
  data: Type.Record(Type.String(), Type.Unknown()),
  nodes: Type.Array(Type.Unknown()),
});

/**
 * Reading a space's content: its live revision (`/content…`) and any of its revisions by id
 * (`/revisions/{revisionId}…`), plus the token-free file downloads their `downloadURL`s point to.
 */
export function spaceContentRoutes(app: TypedApp, ctx: ServerContext): void {
  const reader = contentReaderFor(ctx);
  fileDownloadRoutes(app, ctx, reader);

  // --- the live revision -------------------------------------------------------------------------

  app.get(
    '/v1/spaces/:spaceId/content',
    {
      schema: {
        params: SpaceParams,
        querystring: RevisionQuery,
        response: { 200: PreSerialized(RevisionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const source = reader.spaceSource(callerOf(request).userId, request.params.spaceId);
      return reply.type(JSON_TYPE).send(reader.revisionBytes(source, request.query.format));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/pages',
    {
      schema: {
        params: SpaceParams,
        querystring: PagesQuery,
        response: { 200: PreSerialized(PagesSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const source = reader.spaceSource(callerOf(request).userId, request.params.spaceId);
      return reply.type(JSON_TYPE).send(reader.pagesBytes(source));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/page/:pageId',
    {
      schema: {
        params: SpacePageParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const source = reader.spaceSource(callerOf(request).userId, spaceId);
      return reply.type(JSON_TYPE).send(reader.pageByIdBytes(source, pageId, request.query.format));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/path/*',
    {
      schema: {
        params: SpacePathParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const source = reader.spaceSource(callerOf(request).userId, request.params.spaceId);
      const bytes = reader.pageByPathBytes(source, request.params['*'], request.query.format);
      return reply.type(JSON_TYPE).send(bytes);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/files',
    {
      schema: {
        params: SpaceParams,
        querystring: FilesQuery,
        response: { 200: ListSchema(FileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const source = reader.spaceSource(callerOf(request).userId, request.params.spaceId);
      return reader.files(source, request.query);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/files/:fileId',
    {
      schema: {
        params: SpaceFileParams,
        querystring: FileQuery,
        response: { 200: FileSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, fileId } = request.params;
      const source = reader.spaceSource(callerOf(request).userId, spaceId);
      return reader.fileById(source, fileId);
    },
  );

  // --- a revision by id --------------------------------------------------------------------------

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId',
    {
      schema: {
        params: RevisionParams,
        querystring: RevisionQuery,
        response: { 200: PreSerialized(RevisionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reply.type(JSON_TYPE).send(reader.revisionBytes(source, request.query.format));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/pages',
    {
      schema: {
        params: RevisionParams,
        querystring: PagesQuery,
        response: { 200: PreSerialized(PagesSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reply.type(JSON_TYPE).send(reader.pagesBytes(source));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    {
      schema: {
        params: RevisionPageParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId, pageId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reply.type(JSON_TYPE).send(reader.pageByIdBytes(source, pageId, request.query.format));
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
    {
      schema: {
        params: RevisionPageParams,
        querystring: Type.Object({
          evaluated: PageQuery.properties.evaluated,
          dereferenced: PageQuery.properties.dereferenced,
        }),
        response: { 200: DocumentSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, revisionId, pageId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reader.pageDocument(source, pageId);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/path/*',
    {
      schema: {
        params: RevisionPathParams,
        querystring: PageQuery,
        response: { 200: PreSerialized(PageSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      const bytes = reader.pageByPathBytes(source, request.params['*'], request.query.format);
      return reply.type(JSON_TYPE).send(bytes);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/files',
    {
      schema: {
        params: RevisionParams,
        querystring: FilesQuery,
        response: { 200: ListSchema(FileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reader.files(source, request.query);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    {
      schema: {
        params: RevisionFileParams,
        querystring: FileQuery,
        response: { 200: FileSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, revisionId, fileId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reader.fileById(source, fileId);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/changes',
    {
      schema: {
        params: RevisionParams,
        querystring: ChangesQuery,
        response: { 200: ChangesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, revisionId } = request.params;
      const source = reader.revisionSource(callerOf(request).userId, spaceId, revisionId);
      return reader.revisionChanges(source, request.query.limit);
    },
  );
}
