import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestPerson,
  ChangeRequestRef,
  ChangeRequestSummary,
  ChangeRequestWait,
  PageDiff,
} from '../../shared/contract/change-requests';
import type { CacheDb } from '../cache/open-cache-database';
import { SpaceCache, type CachedSpace } from '../cache/space-cache';
import type { RemoteUser } from '../sync-ports';
import { ChangeRequestStore, type MirroredChangeRequest } from './change-request-store';
import { pageDiffs } from './page-tree-diff';
import { CHANGE_REQUESTS_PULLED_AT } from './pull-change-requests';
import { ChangeRequestRevisionStore } from './revision-store';

/** No mirrored change request has this number in this space. */
export class UnknownChangeRequestError extends Error {
  override readonly name = 'UnknownChangeRequestError';

  constructor(
    readonly space: string,
    readonly number: number,
  ) {
    super(
      `no change request ${number} in space ${space} (is the space synced, and was it pulled?)`,
    );
  }
}

/** The space named by id, or by title or folder name (case-insensitive) when one matches. */
export class UnknownChangeRequestSpaceError extends Error {
  override readonly name = 'UnknownChangeRequestSpaceError';

  constructor(readonly space: string) {
    super(`no synced space ${space}`);
  }
}

/** Order of the inbox: what waits for the user first, in this order, then newest activity. */
const WAIT_ORDER: Record<ChangeRequestWait, number> = {
  'review-requested': 0,
  'changes-requested': 1,
  approved: 2,
};

/**
 * The change-request mirror read for the front ends, from the cache only (so it works offline):
 * the inbox across spaces and organizations, one change request, and its diff.
 */
export class ChangeRequestViews {
  private readonly store: ChangeRequestStore;
  private readonly revisions: ChangeRequestRevisionStore;
  private readonly spaces: SpaceCache;

  constructor(private readonly db: CacheDb) {
    this.store = new ChangeRequestStore(db);
    this.revisions = new ChangeRequestRevisionStore(db);
    this.spaces = new SpaceCache(db);
  }

  /** Every mirrored change request of the synced spaces; what waits for `userId` first. */
  inbox(userId: string): ChangeRequestSummary[] {
    const spaces = this.syncedSpaces();
    const summaries = this.store
      .list()
      .filter((item) => spaces.has(item.spaceId))
      .map((item) => this.summary(item, spaces.get(item.spaceId)!, userId));
    const rank = (item: ChangeRequestSummary) =>
      item.waitingForYou === null ? 3 : WAIT_ORDER[item.waitingForYou];
    // Stable: the store's order (newest activity first) stays within each rank.
    return summaries.sort((a, b) => rank(a) - rank(b));
  }

  detail(ref: ChangeRequestRef, userId: string): ChangeRequestDetail {
    const { item, space } = this.find(ref);
    const cr = item.changeRequest;
    return {
      ...this.summary(item, space, userId),
      revision: cr.revision,
      baseRevision: item.baseRevisionId,
      reviews: item.reviews.map((review) => ({
        reviewer: person(review.reviewer),
        status: review.status === 'approved' ? 'approved' : 'changes-requested',
        outdated: review.outdated,
        createdAt: review.createdAt,
      })),
      requestedReviewers: item.requestedReviewers.map((request) => ({
        user: person(request.user),
        requestedAt: request.createdAt,
      })),
      contributors: item.contributors.map((contributor) => ({
        user: person(contributor.user),
        actionType: contributor.actionType === 'comment' ? 'comment' : 'edit',
        count: contributor.count,
        updatedAt: contributor.updatedAt,
      })),
      fetchedAt: item.fetchedAt,
    };
  }

  /** The diff from the cached revisions (both are cached with the change request, never apart). */
  diff(ref: ChangeRequestRef): ChangeRequestDiff {
    const { item, space } = this.find(ref);
    return {
      spaceId: space.id,
      number: item.changeRequest.number,
      pages: [...this.pageDiffs(ref)],
    };
  }

  /** The diff page by page, computed as it is read (the first page comes before the rest). */
  pageDiffs(ref: ChangeRequestRef): Generator<PageDiff, void, undefined> {
    const { item, space } = this.find(ref);
    const tree = (revisionId: string) => {
      const pages = this.revisions.pages(space.id, revisionId, false);
      // Never shown as "every page added": a missing revision is a broken cache, said so.
      if (!pages)
        throw new Error(
          `revision ${revisionId} of change request ${ref.number} is not in the cache`,
        );
      return pages;
    };
    const base = tree(item.baseRevisionId);
    const head = tree(item.changeRequest.revision);
    return pageDiffs(base, head, (page) => this.revisions.body(page.bodyHash));
  }

  /**
   * Pins (or unpins) a change request of a synced space, mirrored yet or not, and has the next
   * sync refresh the mirror whatever its interval, so the pin takes effect then.
   */
  pin(ref: ChangeRequestRef, pinned: boolean, at: string): void {
    const space = this.resolveSpace(ref.space);
    if (pinned) this.store.pin(space.id, ref.number, at);
    else this.store.unpin(space.id, ref.number);
    this.db.prepare('DELETE FROM sync_state WHERE key = ?').run(CHANGE_REQUESTS_PULLED_AT);
  }

  private find(ref: ChangeRequestRef): { item: MirroredChangeRequest; space: CachedSpace } {
    const space = this.resolveSpace(ref.space);
    const item = this.store.find(space.id, ref.number);
    if (!item) throw new UnknownChangeRequestError(ref.space, ref.number);
    return { item, space };
  }

  resolveSpace(name: string): CachedSpace {
    const spaces = [...this.syncedSpaces().values()];
    const byId = spaces.find((space) => space.id === name);
    if (byId) return byId;
    const folded = name.toLocaleLowerCase();
    const matches = spaces.filter(
      (space) =>
        space.title.toLocaleLowerCase() === folded ||
        space.folderPath.toLocaleLowerCase() === folded ||
        space.folderPath.split('/').pop()?.toLocaleLowerCase() === folded,
    );
    if (matches.length !== 1) throw new UnknownChangeRequestSpaceError(name);
    return matches[0]!;
  }

  private syncedSpaces(): Map<string, CachedSpace> {
    return new Map(
      this.spaces
        .listSpaces()
        .filter((space) => space.removedAt === null && space.enabled)
        .map((space) => [space.id, space]),
    );
  }

  private summary(
    item: MirroredChangeRequest,
    space: CachedSpace,
    userId: string,
  ): ChangeRequestSummary {
    const cr = item.changeRequest;
    return {
      spaceId: space.id,
      space: space.title,
      organizationId: space.organizationId,
      organization: this.spaces.getOrganization(space.organizationId)?.title ?? '',
      id: cr.id,
      number: cr.number,
      subject: cr.subject,
      status: cr.status,
      author: person(cr.createdBy),
      createdAt: cr.createdAt,
      updatedAt: cr.updatedAt,
      outdated: cr.outdated,
      comments: cr.comments,
      pinned: item.pinned,
      waitingForYou: waitOf(item, userId),
      url: cr.urls?.app ?? null,
    };
  }
}

function person(user: RemoteUser): ChangeRequestPerson {
  return { id: user.id, displayName: user.displayName };
}

/** Why the change request waits for `userId`, if it does (only open and draft ones wait). */
export function waitOf(item: MirroredChangeRequest, userId: string): ChangeRequestWait | null {
  const cr = item.changeRequest;
  if (cr.status !== 'open' && cr.status !== 'draft') return null;
  if (item.requestedReviewers.some((request) => request.user.id === userId)) {
    return 'review-requested';
  }
  if (cr.createdBy.id !== userId) return null;
  const current = item.reviews.filter((review) => !review.outdated);
  if (current.some((review) => review.status === 'changes-requested')) return 'changes-requested';
  if (cr.status === 'open' && current.length > 0) return 'approved';
  return null;
}
