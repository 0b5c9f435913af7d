import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { contentReadRoutes, type ContentRouteSource } from './content-read-routes';
import { contentReaderFor } from './content-reader';
import { ChangeRequestSourceParams } from './content-schema';

const CHANGE_REQUEST = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

/**
 * `…/change-requests/{CR}/content…`: a change request's current revision; its changes are what
 * it changes against its base, not against the revision's parent.
 */
const changeRequestRevision: ContentRouteSource<typeof ChangeRequestSourceParams> = {
  path: `${CHANGE_REQUEST}/content`,
  params: ChangeRequestSourceParams,
  resolve: (reader, userId, { spaceId, changeRequestId }) =>
    reader.changeRequestSource(userId, spaceId, changeRequestId),
  changes: {
    path: `${CHANGE_REQUEST}/changes`,
    read: (reader, userId, { spaceId, changeRequestId }, limit) =>
      reader.changeRequestChanges(userId, spaceId, changeRequestId, limit),
  },
};

/**
 * Reading a change request's content (its current revision) and what it changes. `{CR}` is the
 * change request's id or its number. The content writes (POST …/content, …/content/import) live
 * in their own module.
 */
export function changeRequestContentRoutes(app: TypedApp, ctx: ServerContext): void {
  contentReadRoutes(app, contentReaderFor(ctx), changeRequestRevision);
}
