import type { ConflictListing } from '../../../shared/contract/conflicts';
import type { RefusedChangeListing } from '../../../shared/contract/local-changes';
import type { SpaceListing, SpaceStatus } from '../../../shared/contract/spaces';

/** Field by field, so the JSON stays the documented shape whatever the engine adds. */
export function spaceListingJson(space: SpaceListing) {
  return {
    id: space.id,
    title: space.title,
    ...(space.emoji === undefined ? {} : { emoji: space.emoji }),
    organizationId: space.organizationId,
    organization: space.organization,
    folder: space.folder,
    enabled: space.enabled,
  };
}

export function spaceStatusJson(space: SpaceStatus) {
  return {
    id: space.id,
    title: space.title,
    organization: space.organization,
    folder: space.folder,
    enabled: space.enabled,
    state: space.state,
    revision: space.revision,
    remoteRevision: space.remoteRevision,
    pages: space.pages,
    lastSync: space.lastSync,
    errors: [...space.errors],
    changeRequest: space.changeRequest
      ? {
          number: space.changeRequest.number,
          subject: space.changeRequest.subject,
          url: space.changeRequest.url,
        }
      : null,
  };
}

export function refusedJson(change: RefusedChangeListing) {
  return {
    id: change.id,
    spaceId: change.spaceId,
    kind: change.kind,
    path: change.path,
    reason: change.reason,
    holds: [...change.holds],
  };
}

export function conflictJson(conflict: ConflictListing) {
  return {
    id: conflict.id,
    spaceId: conflict.spaceId,
    spaceTitle: conflict.spaceTitle,
    pageId: conflict.pageId,
    pageTitle: conflict.pageTitle,
    path: conflict.path,
    file: conflict.file,
    kind: conflict.kind,
    message: conflict.message,
    createdAt: conflict.createdAt,
  };
}
