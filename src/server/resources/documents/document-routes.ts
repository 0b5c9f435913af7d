import { Type } from '@sinclair/typebox';
import { findPage } from '../../content/page-serializer';
import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReaderFor, type ContentSource } from '../content/content-reader';
import { PageDocumentSchema, PreSerialized } from '../content/content-schema';
import { JSON_TYPE } from '../content/json-response-cache';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

export const DocumentParams = Type.Object({ spaceId: IdParam, documentId: IdParam });
/** `schema` picks GitBook's document schema version; this server has one, served for both. */
export const DocumentQuery = Type.Object({
  schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')])),
});

/**
 * `GET /v1/spaces/{spaceId}/documents/{documentId}` (getDocumentById): the JSON document of the
 * page holding that document id, in the space's live revision, else in one of its change
 * requests (open and draft ones first, most recently updated first). A document id belongs to a
 * space: asked through another space, it is unknown (404).
 */
export function documentRoutes(app: TypedApp, ctx: ServerContext): void {
  const reader = contentReaderFor(ctx);
  const changeRequestIds = ctx.db.prepare<[string], { id: string }>(
    `SELECT id FROM change_requests WHERE space_id = ?
     ORDER BY status IN ('open', 'draft') DESC, updated_at DESC, id`,
  );

  /** The sources a document is looked for in, lazily, in order. */
  function* sources(userId: string, spaceId: string): Generator<ContentSource> {
    yield reader.spaceSource(userId, spaceId);
    for (const { id } of changeRequestIds.all(spaceId)) {
      yield reader.changeRequestSource(userId, spaceId, id);
    }
  }

  app.get(
    '/v1/spaces/:spaceId/documents/:documentId',
    {
      schema: {
        params: DocumentParams,
        querystring: DocumentQuery,
        response: { 200: PreSerialized(PageDocumentSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, documentId } = request.params;
      for (const source of sources(callerOf(request).userId, spaceId)) {
        const tree = reader.queries.tree(source.revision.id);
        const found = tree && findPage(tree.pages, (page) => page.documentId === documentId);
        if (found) {
          const bytes = await reader.pageDocumentBytes(source, found.page.id);
          return reply.type(JSON_TYPE).send(bytes);
        }
      }
      throw notFound(`Document ${documentId}`);
    },
  );
}
