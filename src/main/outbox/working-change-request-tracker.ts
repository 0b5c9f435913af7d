import { RemoteError, RemoteNotFoundError } from '../remote/errors';
import type { Clock, RemotePage } from '../sync-ports';
import type { OutboxChangeRequest, OutboxRemote } from './outbox-remote';
import type { WorkingChangeRequests } from './working-change-requests';

/** Change requests in these states take no more content: the next push starts a new one. */
const INACTIVE = new Set(['merged', 'archived']);

/** The change request just created starts from a newer main than the local edits. */
export class MainMovedError extends Error {}

/**
 * A checkout's change request (pinned: its edits go there and nowhere else) is merged, archived
 * or gone: its edits stay queued, never sent to another change request.
 */
export class PinnedChangeRequestClosedError extends Error {}

export interface WorkingChangeRequestTrackerOptions {
  client: OutboxRemote;
  working: WorkingChangeRequests;
  clock: Clock;
  subjectFor: (spaceId: string) => string;
  newKey: () => string;
  /** The main revision the space's local edits were made against (see OutboxDrainerOptions). */
  expectedBase: (spaceId: string) => string | null | undefined;
  /**
   * Spaces whose row names a change request fixed by the user (a checkout): never retired nor
   * replaced by a new one; a closed one stops the drain (PinnedChangeRequestClosedError).
   */
  pinned?: (spaceId: string) => boolean;
}

/**
 * Each space's working change request, where its pushed edits wait for review: created (a
 * draft, its Idempotency-Key recorded first) on the first push, checked against the server, and
 * retired once merged, archived or gone so that the next push starts a new one.
 */
export class WorkingChangeRequestTracker {
  constructor(private readonly options: WorkingChangeRequestTrackerOptions) {}

  /** The space's working change request as last seen, if any. */
  current(spaceId: string): OutboxChangeRequest | undefined {
    const row = this.options.working.get(spaceId);
    return row?.changeRequestId
      ? {
          id: row.changeRequestId,
          number: row.number ?? 0,
          status: row.status ?? 'draft',
          subject: row.subject,
        }
      : undefined;
  }

  /** The id of a working change request that may still take content, if any. */
  activeId(spaceId: string): string | undefined {
    const row = this.options.working.get(spaceId);
    if (row?.changeRequestId == null || INACTIVE.has(row.status ?? 'draft')) return undefined;
    return row.changeRequestId;
  }

  /** Its page tree from the server; undefined when there is none or the read fails. */
  async pages(spaceId: string): Promise<RemotePage[] | undefined> {
    const id = this.activeId(spaceId);
    const { client } = this.options;
    if (id === undefined || client.getChangeRequestPages === undefined) return undefined;
    try {
      return await client.getChangeRequestPages(spaceId, id);
    } catch {
      return undefined;
    }
  }

  /** Asks the server whether it may still hold pushed changes; unreachable: assumed open. */
  async isOpen(spaceId: string): Promise<boolean> {
    const row = this.options.working.get(spaceId);
    if (row?.changeRequestId == null) return false;
    let current: OutboxChangeRequest | undefined;
    try {
      current = await this.options.client.getChangeRequest(spaceId, row.changeRequestId);
    } catch (error) {
      if (!(error instanceof RemoteNotFoundError)) return true;
    }
    return this.keepIfActive(spaceId, current);
  }

  /** Brings it up to date with main (see OutboxDrainer.followMain); never throws. */
  async followMain(spaceId: string): Promise<'update' | 'conflicts' | 'skipped'> {
    const id = this.activeId(spaceId);
    const { client } = this.options;
    if (id === undefined || client.updateChangeRequestFromMain === undefined) return 'skipped';
    try {
      return await client.updateChangeRequestFromMain(spaceId, id);
    } catch (error) {
      // Gone, or merged or archived (409): the next push starts a new one.
      const status = error instanceof RemoteError ? (error.status ?? 0) : 0;
      if (error instanceof RemoteNotFoundError || status === 409) this.retire(spaceId);
      return 'skipped';
    }
  }

  /** Whether a change request still takes content (404 and merged/archived: no). */
  async isWritable(spaceId: string, changeRequestId: string): Promise<boolean> {
    try {
      const changeRequest = await this.options.client.getChangeRequest(spaceId, changeRequestId);
      return !INACTIVE.has(changeRequest.status);
    } catch (error) {
      if (error instanceof RemoteNotFoundError) return false;
      throw error;
    }
  }

  /** Forgets it when it is still `changeRequestId` (a later one is kept). */
  retireIf(spaceId: string, changeRequestId: string): void {
    if (this.options.working.get(spaceId)?.changeRequestId === changeRequestId) {
      this.retire(spaceId);
    }
  }

  /** Records the server's view of it after a batch, when it is still the working one. */
  recordAnswer(spaceId: string, changeRequest: OutboxChangeRequest): void {
    if (this.options.working.get(spaceId)?.changeRequestId === changeRequest.id) {
      this.options.working.record(spaceId, changeRequest);
    }
  }

  /**
   * The space's working change request, created (as a draft) when there is none. With `check`,
   * the stored one is asked for first and replaced when merged, archived or gone. Throws
   * MainMovedError when the one just created starts from a newer main than the local edits.
   */
  async ensure(spaceId: string, check: boolean): Promise<OutboxChangeRequest> {
    const { working, client } = this.options;
    const stored = working.get(spaceId)?.changeRequestId;
    if (stored) {
      if (!check) return this.current(spaceId)!;
      const current = await client.getChangeRequest(spaceId, stored).catch((error: unknown) => {
        if (error instanceof RemoteNotFoundError) return undefined;
        throw error;
      });
      if (this.keepIfActive(spaceId, current)) return current;
    }
    if (this.options.pinned?.(spaceId) === true) {
      throw new PinnedChangeRequestClosedError(
        `change request ${stored ?? ''} is no longer open: its edits stay queued`,
      );
    }
    const row = working.get(spaceId) ?? this.begin(spaceId);
    const created = await client.createChangeRequest(spaceId, row.subject, {
      idempotencyKey: row.createKey,
    });
    working.record(spaceId, created);
    const expected = this.options.expectedBase(spaceId);
    if (created.baseRevision !== undefined && expected && created.baseRevision !== expected) {
      // Kept as the working change request (the pull brings the folder to its base); later
      // drains find it made and send to it, after the pull this one now waits for.
      throw new MainMovedError(`main moved to ${created.baseRevision}`);
    }
    return created;
  }

  /** Records the server's view when still active; otherwise (or gone) retires it. */
  private keepIfActive(
    spaceId: string,
    current: OutboxChangeRequest | undefined,
  ): current is OutboxChangeRequest {
    if (current !== undefined && !INACTIVE.has(current.status)) {
      this.options.working.record(spaceId, current);
      return true;
    }
    if (current !== undefined && this.options.pinned?.(spaceId) === true) {
      this.options.working.record(spaceId, current);
    }
    this.retire(spaceId);
    return false;
  }

  private retire(spaceId: string): void {
    if (this.options.pinned?.(spaceId) === true) {
      this.options.working.markClosed(spaceId);
      return;
    }
    this.options.working.retire(spaceId);
  }

  /** Records the intent (subject, Idempotency-Key) before the create request is sent. */
  private begin(spaceId: string) {
    const { working, clock } = this.options;
    working.begin(
      spaceId,
      this.options.subjectFor(spaceId),
      this.options.newKey(),
      clock.now().toISOString(),
    );
    return working.get(spaceId)!;
  }
}
