import type { ActivityEntry, WatchRunSummary } from './activity';
import type { ConflictListing } from './conflicts';
import type { ReviewNotification } from './review';
import type { SyncProgress, SyncStatusProblem, SyncStatusSnapshot } from './sync-status';

/** Everything the application layer announces: event name → payload (plain data). */
export interface QuireEvents {
  /** The status snapshot changed (state, pending count, pause…). */
  status: SyncStatusSnapshot;
  /** Progress of a long sync. */
  progress: SyncProgress;
  /** The files not pushed or not written changed (the full list). */
  problems: readonly SyncStatusProblem[];
  /** The open conflicts changed (the full list). */
  conflicts: readonly ConflictListing[];
  /** A new line of the activity log. */
  activity: ActivityEntry;
  /** A background sync run finished. */
  run: WatchRunSummary;
  /** Something new on the user's change requests (a comment, a reply, a review, a merge). */
  notification: ReviewNotification;
  /**
   * A change request's mirror, comments or checkout changed (locally or by a pull): screens
   * showing it read it again. `number` null: the space's comments or the inbox as a whole.
   */
  reviewChanged: { spaceId: string; number: number | null };
}

export type EventName = keyof QuireEvents;

export type QuireEventListener<E extends EventName> = (payload: QuireEvents[E]) => void;

/** Every event name, for bridges that forward each one. */
export const EVENT_NAMES = [
  'status',
  'progress',
  'problems',
  'conflicts',
  'activity',
  'run',
  'notification',
  'reviewChanged',
] as const satisfies readonly EventName[];
