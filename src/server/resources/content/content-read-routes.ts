import type { Static, TObject, TProperties, TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ContentReader, ContentSource } from './content-reader';
import {
  ChangesQuery,
  ChangesSchema,
  FileIdParams,
  FileQuery,
  FileSchema,
  FilesQuery,
  PageDocumentQuery,
  PageDocumentSchema,
  PageIdParams,
  PagePathParams,
  PageQuery,
  PageSchema,
  PagesQuery,
  PagesSchema,
  PreSerialized,
  RevisionQuery,
  RevisionSchema,
  contentParams,
} from './content-schema';
import { JSON_TYPE } from './json-response-cache';

/**
 * Where content reads read: the live revision of a space, a revision by id or a change request's
 * revision. Every read is written once (contentReadRoutes) and registered for each source.
 */
export interface ContentRouteSource<P extends TProperties> {
  /** The path the reads hang below (`…/content` or the revision itself). */
  path: string;
  /** The path parameters of `path`, validated on every read before `resolve` sees them. */
  params: P;
  /** Checks the caller's access and finds the revision (404 when it is unknown). */
  resolve(reader: ContentReader, userId: string, params: Static<TObject<P>>): ContentSource;
  /** GET `path`/page/:pageId/document: the published API has it for revisions by id only. */
  pageDocument?: boolean;
  /** GET …/changes, for the sources that have it: where, and what is diffed against what. */
  changes?: {
    path: string;
    read(
      reader: ContentReader,
      userId: string,
      params: Static<TObject<P>>,
      limit: number | undefined,
    ): Static<typeof ChangesSchema>;
  };
}

/**
 * The content reads of one source: the revision, its pages, a page by id or by path, its files,
 * a file by id, and where the source has them a page's JSON document and the changes.
 */
export function contentReadRoutes<P extends TProperties>(
  app: TypedApp,
  reader: ContentReader,
  source: ContentRouteSource<P>,
): void {
  const { path } = source;
  // Fastify types a route's params as the read's own (see contentParams). The source's are in the
  // same object, validated by the same schema, which is built from `source.params`.
  const sourceParams = (request: FastifyRequest) => request.params as Static<TObject<P>>;
  const userId = (request: FastifyRequest) => callerOf(request).userId;
  const resolve = (request: FastifyRequest) =>
    source.resolve(reader, userId(request), sourceParams(request));
  /** A read's schema: its own path parameters after the source's, its query and its 200 body. */
  const schema = <O extends TProperties, Q extends TSchema, R extends TSchema>(
    own: O,
    querystring: Q,
    body: R,
  ) => ({
    params: contentParams(source.params, own),
    querystring,
    response: { 200: body, ...errorResponses },
  });

  app.get(
    path,
    { schema: schema({}, RevisionQuery, PreSerialized(RevisionSchema)) },
    async (request, reply) =>
      reply
        .type(JSON_TYPE)
        .send(await reader.revisionBytes(resolve(request), request.query.format)),
  );

  app.get(
    `${path}/pages`,
    { schema: schema({}, PagesQuery, PreSerialized(PagesSchema)) },
    async (request, reply) => reply.type(JSON_TYPE).send(await reader.pagesBytes(resolve(request))),
  );

  app.get(
    `${path}/page/:pageId`,
    { schema: schema(PageIdParams, PageQuery, PreSerialized(PageSchema)) },
    async (request, reply) => {
      const { pageId } = request.params;
      const bytes = await reader.pageByIdBytes(resolve(request), pageId, request.query.format);
      return reply.type(JSON_TYPE).send(bytes);
    },
  );

  if (source.pageDocument) {
    app.get(
      `${path}/page/:pageId/document`,
      { schema: schema(PageIdParams, PageDocumentQuery, PreSerialized(PageDocumentSchema)) },
      async (request, reply) =>
        reply
          .type(JSON_TYPE)
          .send(await reader.pageDocumentBytes(resolve(request), request.params.pageId)),
    );
  }

  app.get(
    `${path}/path/*`,
    { schema: schema(PagePathParams, PageQuery, PreSerialized(PageSchema)) },
    async (request, reply) => {
      const bytes = await reader.pageByPathBytes(
        resolve(request),
        request.params['*'],
        request.query.format,
      );
      return reply.type(JSON_TYPE).send(bytes);
    },
  );

  app.get(
    `${path}/files`,
    { schema: schema({}, FilesQuery, ListSchema(FileSchema)) },
    async (request) => reader.files(resolve(request), request.query),
  );

  app.get(
    `${path}/files/:fileId`,
    { schema: schema(FileIdParams, FileQuery, FileSchema) },
    async (request) => reader.fileById(resolve(request), request.params.fileId),
  );

  const { changes } = source;
  if (changes) {
    app.get(changes.path, { schema: schema({}, ChangesQuery, ChangesSchema) }, async (request) =>
      changes.read(reader, userId(request), sourceParams(request), request.query.limit),
    );
  }
}
