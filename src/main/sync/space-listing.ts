import path from 'node:path';
import type { CachedOrganization, CachedSpace } from '../cache/space-cache';
import { NameAllocator } from '../../shared/gitsync/name-allocator';
import type { SyncError } from '../../shared/contract/sync-error';
import type { RemoteOrganization, RemoteSpace } from '../sync-ports';
import { nowOf, type EngineContext } from './engine-context';
import { syncErrorOf, withContext } from './sync-error-of';
import { messageOf } from '../../shared/message-of';

/** Below this many spaces, the first listing enables them all; otherwise the user chooses. */
export const AUTO_ENABLE_SPACE_LIMIT = 20;

const SPACES_LISTED_KEY = 'spaces-listed';

export interface RefreshResult {
  organizations: CachedOrganization[];
  spaces: CachedSpace[];
  /** Spaces seen for the first time by this listing. */
  added: string[];
  /** Spaces that disappeared from a successful listing. */
  removed: string[];
  /** Why an organization's space list could not be read (its spaces are left as they were). */
  errors: SyncError[];
}

/**
 * Lists organizations and their spaces (one request each) and records them. The first listing
 * ever enables every space when there are fewer than 20; spaces seen later start disabled.
 */
export async function refreshSpaces(ctx: EngineContext): Promise<RefreshResult> {
  const organizations = await ctx.remote.listOrganizations();
  ctx.onProgress({ phase: 'listing', done: 0, total: organizations.length });
  const listed = new Map<string, RemoteSpace[]>();
  const errors: SyncError[] = [];
  const firstListing = ctx.state.get(SPACES_LISTED_KEY) === undefined;
  for (const [i, organization] of organizations.entries()) {
    try {
      listed.set(organization.id, await ctx.remote.listSpaces(organization.id));
    } catch (error) {
      // A first listing decides which spaces to enable: it must see them all.
      if (firstListing) throw error;
      errors.push(withContext(syncErrorOf(error), `Listing the spaces of ${organization.title}: `));
      ctx.log('warn', 'listing spaces failed', {
        organization: organization.id,
        error: messageOf(error),
      });
    }
    ctx.onProgress({ phase: 'listing', done: i + 1, total: organizations.length });
  }
  const { added, removed } = ctx.db.transaction(() => {
    const now = nowOf(ctx);
    const removedOrgs = recordOrganizations(ctx, organizations, now);
    const result = recordSpaces(ctx, listed, firstListing, now);
    if (firstListing) ctx.state.set(SPACES_LISTED_KEY, now);
    return { added: result.added, removed: [...removedOrgs, ...result.removed] };
  })();
  return {
    organizations: ctx.spaces.listOrganizations(),
    spaces: ctx.spaces.listSpaces(),
    added,
    removed,
    errors,
  };
}

/** Records the listed organizations; returns the spaces of those gone (marked removed). */
function recordOrganizations(
  ctx: EngineContext,
  organizations: readonly RemoteOrganization[],
  now: string,
): string[] {
  const known = new Map(ctx.spaces.listOrganizations().map((org) => [org.id, org]));
  const orgFolders = new NameAllocator({ reserved: [] });
  for (const org of known.values()) orgFolders.reserve(org.folderName);
  organizations.forEach((org, position) => {
    if (known.has(org.id)) {
      ctx.spaces.updateOrganization({ id: org.id, title: org.title, position });
    } else {
      const folderName = orgFolders.allocate({ stem: org.title });
      ctx.spaces.insertOrganization({ id: org.id, title: org.title, folderName, position });
    }
  });
  const present = new Set(organizations.map((org) => org.id));
  const removed: string[] = [];
  // An empty list while spaces are known is more likely a wrong token than a user who left
  // every organization: never treat it as a removal of everything.
  if (organizations.length === 0) return removed;
  for (const org of known.values()) {
    if (present.has(org.id)) continue;
    ctx.spaces.markOrganizationRemoved(org.id, now);
    for (const space of ctx.spaces.listSpaces(org.id)) {
      if (space.removedAt === null) {
        ctx.spaces.markSpaceRemoved(space.id, now);
        removed.push(space.id);
      }
    }
  }
  return removed;
}

/** Records the listed spaces of each organization read; new ones get a folder of their own. */
function recordSpaces(
  ctx: EngineContext,
  listed: ReadonlyMap<string, readonly RemoteSpace[]>,
  firstListing: boolean,
  now: string,
): { added: string[]; removed: string[] } {
  const total = [...listed.values()].reduce((n, spaces) => n + spaces.length, 0);
  const enableNew = firstListing && total < AUTO_ENABLE_SPACE_LIMIT;
  const added: string[] = [];
  const removed: string[] = [];
  const allSpaces = ctx.spaces.listSpaces();
  const byId = new Map(allSpaces.map((space) => [space.id, space]));
  for (const [organizationId, spaces] of listed) {
    const org = ctx.spaces.getOrganization(organizationId)!;
    const spaceFolders = new NameAllocator({ reserved: [] });
    for (const space of allSpaces) {
      if (path.posix.dirname(space.folderPath) === org.folderName) {
        spaceFolders.reserve(path.posix.basename(space.folderPath));
      }
    }
    spaces.forEach((remote, position) => {
      const listing = {
        id: remote.id,
        organizationId,
        title: remote.title,
        emoji: remote.emoji ?? null,
        parentId: remote.parent ?? null,
        position,
        remoteRevision: remote.revision,
      };
      if (byId.has(remote.id)) {
        ctx.spaces.updateSpaceListing(listing);
      } else {
        const folderName = spaceFolders.allocate({ stem: remote.title });
        ctx.spaces.insertSpace({
          ...listing,
          folderPath: `${org.folderName}/${folderName}`,
          enabled: enableNew,
          discoveredAt: now,
        });
        added.push(remote.id);
      }
    });
    const ids = new Set(spaces.map((space) => space.id));
    for (const space of ctx.spaces.listSpaces(organizationId)) {
      if (!ids.has(space.id) && space.removedAt === null) {
        ctx.spaces.markSpaceRemoved(space.id, now);
        removed.push(space.id);
      }
    }
  }
  return { added, removed };
}
