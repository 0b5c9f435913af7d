import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReadRoutes, type ContentRouteSource } from './content-read-routes';
import { contentReaderFor } from './content-reader';
import { RevisionSourceParams, SpaceSourceParams } from './content-schema';
import { fileDownloadRoutes } from './file-download-routes';

/** `/content…`: the space's live revision. */
const liveRevision: ContentRouteSource<typeof SpaceSourceParams> = {
  path: '/v1/spaces/:spaceId/content',
  params: SpaceSourceParams,
  resolve: (reader, userId, { spaceId }) => reader.spaceSource(userId, spaceId),
};

const REVISION = '/v1/spaces/:spaceId/revisions/:revisionId';

/** `/revisions/{revisionId}…`: any revision of the space, with its page documents and changes. */
const revisionById: ContentRouteSource<typeof RevisionSourceParams> = {
  path: REVISION,
  params: RevisionSourceParams,
  resolve: (reader, userId, { spaceId, revisionId }) =>
    reader.revisionSource(userId, spaceId, revisionId),
  pageDocument: true,
  changes: {
    path: `${REVISION}/changes`,
    read: (reader, userId, { spaceId, revisionId }, limit) =>
      reader.revisionChanges(reader.revisionSource(userId, spaceId, revisionId), limit),
  },
};

/**
 * Reading a space's content: its live revision and any of its revisions by id, plus the
 * token-free file downloads their `downloadURL`s point to.
 */
export function spaceContentRoutes(app: TypedApp, ctx: ServerContext): void {
  const reader = contentReaderFor(ctx);
  fileDownloadRoutes(app, ctx, reader);
  contentReadRoutes(app, reader, liveRevision);
  contentReadRoutes(app, reader, revisionById);
}
