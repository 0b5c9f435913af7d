import { ChangeRequestStatus } from '@gitbook/api';
import type { ContentCache } from '../cache/content-cache';
import type { CacheDb } from '../cache/open-cache-database';
import type { CachedSpace, SpaceCache } from '../cache/space-cache';
import type { RemoteChangeRequest, RemoteChangeRequests, RemoteWorkspace } from '../sync-ports';
import { messageOf } from '../../shared/message-of';
import { ChangeRequestStore, baseRevisionOf, fingerprintOf } from './change-request-store';
import { ChangeRequestRevisionStore } from './revision-store';

/** The change requests every synced space mirrors (plus pinned ones, whatever their status). */
const MIRRORED_STATUSES: readonly ChangeRequestStatus[] = [
  ChangeRequestStatus.Open,
  ChangeRequestStatus.Draft,
];

/** The `sync_state` key of the last refresh of the mirror (see the engine's interval). */
export const CHANGE_REQUESTS_PULLED_AT = 'change-requests.pulled-at';

export interface ChangeRequestPullDeps {
  db: CacheDb;
  spaces: SpaceCache;
  content: ContentCache;
  remote: Pick<RemoteWorkspace, 'getRevision'>;
  changeRequests: RemoteChangeRequests;
  now(): string;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

export interface ChangeRequestPullReport {
  /** Change requests whose details and content were (re)fetched. */
  fetched: number;
  /** Change requests that left the mirror (merged, archived, deleted, unpinned). */
  removed: number;
  /** One line per organization or change request that could not be read (the rest went on). */
  errors: string[];
}

/**
 * Mirrors the change requests of every synced space: one organization-wide list per
 * organization (open and draft ones), one read per pinned change request, and, only for those
 * whose listing changed since the last pull, their reviews, requested reviewers, contributors
 * and the two revisions they are compared at (skipped when cached). An organization whose list
 * fails keeps its cached change requests as they were.
 */
export async function pullChangeRequests(
  deps: ChangeRequestPullDeps,
): Promise<ChangeRequestPullReport> {
  const report: ChangeRequestPullReport = { fetched: 0, removed: 0, errors: [] };
  const synced = deps.spaces
    .listSpaces()
    .filter((space) => space.enabled && space.removedAt === null && space.syncedRevision !== null);
  const byOrganization = new Map<string, CachedSpace[]>();
  for (const space of synced) {
    byOrganization.set(space.organizationId, [
      ...(byOrganization.get(space.organizationId) ?? []),
      space,
    ]);
  }
  const store = new ChangeRequestStore(deps.db);
  for (const [organizationId, spaces] of byOrganization) {
    let listed: RemoteChangeRequest[];
    try {
      listed = await deps.changeRequests.listOrganizationChangeRequests(
        organizationId,
        MIRRORED_STATUSES,
      );
    } catch (error) {
      report.errors.push(`change requests of organization ${organizationId}: ${messageOf(error)}`);
      continue;
    }
    for (const space of spaces) {
      const wanted = listed.filter((cr) => cr.space === space.id);
      await addPinned(deps, store, space.id, wanted, report);
      await mirrorSpace(deps, store, space.id, wanted, report);
    }
  }
  new ChangeRequestRevisionStore(deps.db).collect();
  if (report.fetched > 0 || report.removed > 0) {
    deps.log('info', 'change requests pulled', {
      fetched: report.fetched,
      removed: report.removed,
    });
  }
  return report;
}

/** Pinned change requests the list did not bring (merged, archived): read one by one. */
async function addPinned(
  deps: ChangeRequestPullDeps,
  store: ChangeRequestStore,
  spaceId: string,
  wanted: RemoteChangeRequest[],
  report: ChangeRequestPullReport,
): Promise<void> {
  const listedNumbers = new Set(wanted.map((cr) => cr.number));
  for (const number of store.pins(spaceId)) {
    if (listedNumbers.has(number)) continue;
    try {
      const cr = await deps.changeRequests.getChangeRequest(spaceId, String(number));
      if (cr) wanted.push(cr);
    } catch (error) {
      report.errors.push(`change request ${number} of space ${spaceId}: ${messageOf(error)}`);
      // Kept as cached: not knowing is not a reason to drop it.
      const cached = store.find(spaceId, number);
      if (cached) wanted.push(cached.changeRequest);
    }
  }
}

async function mirrorSpace(
  deps: ChangeRequestPullDeps,
  store: ChangeRequestStore,
  spaceId: string,
  wanted: readonly RemoteChangeRequest[],
  report: ChangeRequestPullReport,
): Promise<void> {
  const cached = store.fingerprints(spaceId);
  const keep = new Set(wanted.map((cr) => cr.id));
  for (const id of cached.keys()) {
    if (keep.has(id)) continue;
    store.remove(spaceId, id);
    report.removed++;
  }
  for (const cr of wanted) {
    if (cached.get(cr.id) === fingerprintOf(cr)) continue;
    try {
      await fetchChangeRequest(deps, store, cr);
      report.fetched++;
    } catch (error) {
      // The next pull tries again: its fingerprint was not recorded.
      report.errors.push(`change request ${cr.number} of space ${spaceId}: ${messageOf(error)}`);
      deps.log('warn', 'change request not mirrored', {
        space: spaceId,
        number: cr.number,
        error: messageOf(error),
      });
    }
  }
}

/** Reads one change request's details and both revisions into the mirror (the actions refresh one). */
export async function fetchChangeRequest(
  deps: ChangeRequestPullDeps,
  store: ChangeRequestStore,
  cr: RemoteChangeRequest,
): Promise<void> {
  const port = deps.changeRequests;
  const [reviews, requestedReviewers, contributors] = await Promise.all([
    port.listReviews(cr.space, cr.id),
    port.listRequestedReviewers(cr.space, cr.id),
    port.listContributors(cr.space, cr.id),
  ]);
  await ensureRevision(deps, cr.space, baseRevisionOf(cr));
  await ensureRevision(deps, cr.space, cr.revision);
  store.upsert(cr, { reviews, requestedReviewers, contributors }, deps.now());
}

/** Caches a revision's pages unless cached: from the synced space when it is that one. */
async function ensureRevision(
  deps: ChangeRequestPullDeps,
  spaceId: string,
  revisionId: string,
): Promise<void> {
  const revisions = new ChangeRequestRevisionStore(deps.db);
  if (revisions.has(spaceId, revisionId)) return;
  const local =
    deps.content.revisionId(spaceId) === revisionId
      ? deps.content.loadRevision(spaceId)
      : undefined;
  const pages = local?.pages ?? (await deps.remote.getRevision(spaceId, revisionId)).pages;
  revisions.store(spaceId, revisionId, pages, deps.now());
}
