import { ContentCache } from '../cache/content-cache';
import type { CacheDb } from '../cache/open-cache-database';
import { SpaceCache } from '../cache/space-cache';
import { WorkspaceChangeRequestRemote } from '../change-requests/workspace-change-request-remote';
import type { WorkspaceClient } from '../remote/workspace-client';
import type { SyncLog } from '../sync/engine-context';
import { ReviewActions } from './review-actions';
import { WorkspaceReviewRemote } from './workspace-review-remote';

/** The review actions over one cache and the real client (what the engine session hands out). */
export function workspaceReviewActions(
  db: CacheDb,
  client: WorkspaceClient,
  log: SyncLog,
): ReviewActions {
  const now = () => new Date().toISOString();
  return new ReviewActions({
    db,
    remote: new WorkspaceReviewRemote(client),
    pull: {
      db,
      spaces: new SpaceCache(db),
      content: new ContentCache(db),
      remote: client,
      changeRequests: new WorkspaceChangeRequestRemote(client),
      now,
      log,
    },
    now,
  });
}
