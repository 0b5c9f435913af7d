import { WorkingChangeRequests } from '../outbox/working-change-requests';
import type { RemoteChangeRequest, RemotePage, RemoteRevision } from '../sync-ports';
import type { CachedSpace } from '../cache/space-cache';
import { nowOf, type EngineContext } from '../sync/engine-context';
import { pullSpace } from '../sync/pull/pull-space';
import { emptyReport, type SpaceSyncReport } from '../sync/sync-report';
import type { SyncRun } from '../sync/sync-run';
import { allocateCheckoutFolder } from './checkout-folder';
import { checkoutKey, type CheckoutRow } from './checkout-store';

/** Merged or archived change requests take no content: they cannot be checked out. */
export const CLOSED_STATUSES: ReadonlySet<string> = new Set(['merged', 'archived']);

/** The change request cannot be checked out (closed, or the server does not know it). */
export class CheckoutRefusedError extends Error {
  override readonly name = 'CheckoutRefusedError';
}

/**
 * Checks a change request out: records it (a `spaces` row under its own key, its `checkouts`
 * row, and its change request as the fixed target of its edits) and mirrors its revision into
 * its folder. A change request already checked out is pulled again, not checked out twice.
 */
export async function checkOut(
  ctx: EngineContext,
  run: SyncRun,
  space: CachedSpace,
  changeRequest: RemoteChangeRequest,
): Promise<{ checkout: CheckoutRow; report: SpaceSyncReport }> {
  if (CLOSED_STATUSES.has(changeRequest.status)) {
    throw new CheckoutRefusedError(
      `change request #${changeRequest.number} is ${changeRequest.status}: only open and draft ones can be checked out`,
    );
  }
  const key = checkoutKey(space.id, changeRequest.id);
  if (ctx.checkouts.get(key) === undefined) {
    const folderPath = await allocateCheckoutFolder(ctx, space, changeRequest);
    record(ctx, space, changeRequest, { key, folderPath });
  }
  ctx.checkouts.record(key, changeRequest.status, changeRequest.subject);
  ctx.spaces.setRemoteRevision(key, changeRequest.revision);
  const row = ctx.spaces.getSpace(key)!;
  const report = emptyReport(row);
  if (row.syncedRevision !== changeRequest.revision) {
    report.pulled = true;
    const first =
      row.syncedRevision === null
        ? firstFetch(ctx, space.id, row.id, row.remoteRevision!)
        : undefined;
    await pullSpace(ctx, run, row, report, first);
  }
  return { checkout: ctx.checkouts.get(key)!, report };
}

function record(
  ctx: EngineContext,
  space: CachedSpace,
  changeRequest: RemoteChangeRequest,
  where: { key: string; folderPath: string },
): void {
  const now = nowOf(ctx);
  const working = new WorkingChangeRequests(ctx.db);
  ctx.db.transaction(() => {
    ctx.spaces.insertSpace({
      id: where.key,
      organizationId: space.organizationId,
      title: `${space.title} #${changeRequest.number}`,
      emoji: null,
      parentId: null,
      folderPath: where.folderPath,
      position: 0,
      enabled: true,
      remoteRevision: changeRequest.revision,
      discoveredAt: now,
    });
    ctx.checkouts.insert({
      key: where.key,
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      number: changeRequest.number,
      subject: changeRequest.subject,
      status: changeRequest.status,
      createdAt: now,
    });
    // The outbox sends this key's edits to this change request, and to no other (`pinned`).
    working.begin(where.key, changeRequest.subject, `checkout-${changeRequest.id}`, now);
    working.record(where.key, {
      id: changeRequest.id,
      number: changeRequest.number,
      status: changeRequest.status,
      subject: changeRequest.subject,
      ...(changeRequest.urls?.app !== undefined ? { url: changeRequest.urls.app } : {}),
    });
  })();
}

/**
 * The first fetch of a checkout: pages the change request left as they are on main are not read
 * again (a server answering page by page skips those it is told it knows), their bodies taken
 * from the synced space's cache instead.
 */
async function firstFetch(
  ctx: EngineContext,
  spaceId: string,
  key: string,
  revisionId: string,
): Promise<RemoteRevision> {
  const revision = await ctx.remote.getRevision(key, revisionId, ctx.content.knownPages(spaceId));
  const fill = (pages: readonly RemotePage[]) => {
    for (const page of pages) {
      if (page.type === 'document' && page.markdown === undefined) {
        const cached = ctx.content.pageMarkdown(spaceId, page.id);
        if (cached !== undefined) page.markdown = cached;
      }
      fill(page.pages);
    }
  };
  fill(revision.pages);
  return revision;
}
