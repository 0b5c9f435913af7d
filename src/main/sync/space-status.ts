import type { CachedSpace } from '../cache/space-cache';
import type { SyncProblem } from '../cache/sync-problems';
import type { Conflict } from '../conflicts/conflict-store';
import type { SpaceState } from '../../shared/contract/space-state';
import type { EngineContext } from './engine-context';

/** An open conflict as the CLI and the app list it. */
export interface SpaceConflict extends Conflict {
  spaceTitle: string;
  /** The space folder, relative to the mirror root (null once the space is forgotten). */
  spaceFolder: string | null;
}

export interface SpaceStatus {
  id: string;
  organizationId: string;
  organization: string;
  title: string;
  /** The space folder, relative to the mirror root. */
  folder: string;
  enabled: boolean;
  /**
   * `pending`: enabled, never synced; `outdated`: the remote revision moved since the last sync;
   * `removed`: gone remotely, locally edited files kept (see `problems`).
   */
  state: SpaceState;
  /** The revision the folder reflects. */
  revision: string | null;
  remoteRevision: string | null;
  pages: number;
  lastSync: string | null;
  errors: string[];
  problems: SyncProblem[];
  /** Open conflicts (`conflicts()`), edit-against-delete notes included. */
  conflicts: number;
}

/** Every known space (and removed ones with problems left), as `quire status` shows them. */
export function spaceStatuses(ctx: EngineContext): SpaceStatus[] {
  const organizations = new Map(ctx.spaces.listOrganizations().map((org) => [org.id, org]));
  const result: SpaceStatus[] = [];
  // Checked-out change requests are listed after the spaces: their edits count as pending too.
  const checkouts = ctx.checkouts.list().flatMap((checkout) => {
    const row = ctx.spaces.getSpace(checkout.key);
    return row === undefined ? [] : [row];
  });
  for (const space of [...ctx.spaces.listSpaces(), ...checkouts]) {
    const problems = problemsOf(ctx, space.id);
    if (space.removedAt !== null && problems.length === 0) continue;
    const conflicts = ctx.conflictStore.open(space.id);
    result.push({
      id: space.id,
      organizationId: space.organizationId,
      organization: organizations.get(space.organizationId)?.title ?? space.organizationId,
      title: space.title,
      folder: space.folderPath,
      enabled: space.enabled,
      state: stateOf(space),
      revision: space.syncedRevision,
      remoteRevision: space.remoteRevision,
      pages: ctx.content.pageCount(space.id),
      lastSync: space.lastSyncAt,
      errors: [
        ...(space.lastError !== null ? [space.lastError] : []),
        ...problems.map((problem) => problem.message),
        ...conflicts.map((conflict) => conflict.message),
      ],
      problems,
      conflicts: conflicts.length,
    });
  }
  return result;
}

/**
 * The space's recorded problems, and those of its refused changes read from the outbox itself:
 * the drain marks a change refused in the outbox's own transaction, so a status read at any
 * moment shows the refusal and its problem together (never one without the other).
 */
function problemsOf(ctx: EngineContext, spaceId: string): SyncProblem[] {
  const recorded = ctx.problems.list(spaceId).filter((problem) => problem.kind !== 'push-failed');
  const refused = ctx.refused.problems(spaceId).map((problem, index): SyncProblem => ({
    // Not rows of sync_problems: negative ids keep them apart from recorded ones.
    id: -(index + 1),
    spaceId,
    kind: 'push-failed',
    path: problem.path,
    pageId: problem.pageId,
    message: problem.message,
    createdAt: '',
  }));
  return [...recorded, ...refused];
}

/** Open conflicts (and edit-against-delete notes) of every space, oldest first. */
export function spaceConflicts(ctx: EngineContext): SpaceConflict[] {
  return ctx.conflictStore.open().map((conflict) => {
    const space = ctx.spaces.getSpace(conflict.spaceId);
    return {
      ...conflict,
      spaceTitle: space?.title ?? conflict.spaceId,
      spaceFolder: space?.folderPath ?? null,
    };
  });
}

function stateOf(space: CachedSpace): SpaceState {
  if (space.removedAt !== null) return 'removed';
  if (!space.enabled) return 'disabled';
  if (space.lastError !== null) return 'error';
  if (space.syncedRevision === null) return 'pending';
  return space.syncedRevision === space.remoteRevision ? 'synced' : 'outdated';
}
