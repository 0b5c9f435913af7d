import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { CacheDb } from '../cache/open-cache-database';
import {
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteRedirectError,
  RemoteUnavailableError,
} from '../remote/errors';
import type { Sleep } from '../remote/rate-limited-fetch';
import type { Clock, RemotePage } from '../sync-ports';
import type { Outbox } from './outbox';
import { BatchPositions } from './batch-positions';
import { OutboxBatches, type OutboxBatch } from './outbox-batches';
import type { OutboxChangeRequest, OutboxRemote } from './outbox-remote';
import { SyncPause, type PauseState } from '../cache/sync-pause';
import { WorkingChangeRequests } from './working-change-requests';
import { emptyDrainResult, type DrainResult } from './drain-result';
import { readBackPages, type PendingReadBack } from './read-back-pages';
import {
  MainMovedError,
  PinnedChangeRequestClosedError,
  WorkingChangeRequestTracker,
} from './working-change-request-tracker';

export type { DrainResult, ReadBack } from './drain-result';

export interface OutboxDrainerOptions {
  /** The cache database the outbox lives in. */
  db: CacheDb;
  outbox: Outbox;
  /** The server (WorkspaceOutboxRemote over the rate-limited WorkspaceClient). */
  client: OutboxRemote;
  /** Names new working change requests: "Edits from <deviceName>". */
  deviceName: string;
  clock: Clock;
  /** Waits between attempts while the server is unreachable (tests record the delays). */
  sleep?: Sleep;
  /** Subject of a new working change request (default `Edits from <deviceName>`). */
  subject?: (spaceId: string) => string;
  /** First wait while offline (default 5 s), doubled after each failed attempt... */
  offlineBaseDelayMs?: number;
  /** ...up to this (default 5 min). */
  offlineMaxDelayMs?: number;
  /** Waits after which drain gives up and resolves `offline` (default: never gives up). */
  maxOfflineWaits?: number;
  /** Whether to read pushed pages back (default true). */
  readBack?: boolean;
  /** Idempotency-Keys (default random UUIDs). */
  newKey?: () => string;
  /**
   * The main revision the space's local edits were made against (its last pull). A working
   * change request created from another one (main moved between the check before the push and
   * the creation) gets nothing until a pull has merged that main into the folder: a page sent as
   * it was would replace the other user's edit of it without the merge seeing a conflict.
   */
  expectedBase?: (spaceId: string) => string | null | undefined;
  /** Spaces (checkouts) whose edits go to one fixed change request (see the tracker's `pinned`). */
  pinned?: (spaceId: string) => boolean;
}

const DEFAULT_OFFLINE_BASE_MS = 5_000;
const DEFAULT_OFFLINE_MAX_MS = 5 * 60_000;
/** 409s on a writable change request waited out before the batch counts as refused. */
const MAX_CONFLICT_RETRIES = 5;

/** The server asked us to come back later for a reason other than being unreachable. */
class RetryLater extends Error {}

/**
 * Sends a space's outbox to its working change request, one batch (≤ 50 changes) per
 * updateChangeRequestContent call:
 *
 * 1. A batch is written (Idempotency-Key = its id, exact body, target change request) before it
 *    is sent, and only settled after the server's answer, in one transaction. A crash anywhere
 *    in between leaves it open; the next drain sends the same key and body again and the server
 *    answers with the response it stored (for 24 hours) instead of applying it twice.
 * 2. The working change request is created on the first push ("Edits from <device>", a draft),
 *    its key also recorded first. Each drain checks it once: merged or archived (or gone), the
 *    next push starts a new one. A batch that meets a merged or archived change request (409),
 *    having not been applied there, is moved to the new one under a new key.
 * 3. Unreachable (RemoteUnavailableError, after the fetch's own retries), a 408, or a 409 while
 *    the same key is still being processed: wait with exponential backoff (no jitter: the fetch
 *    under it already jitters its own retries) and try again; changes are never dropped for it.
 *    A 409 that persists on a writable change request (5 times) is treated as a refusal (4).
 * 4. A 4xx that retrying cannot fix (not 401, 408, 409 or 429): the change at fault is marked
 *    failed with the server's message (Outbox.failed) and the others carry on; a refusal that
 *    names no change splits the batch until it does (OutboxBatches.fail). Only changes that need
 *    a refused insert wait with it (Outbox.held). A failed change stays in the outbox (never
 *    silently dropped) until a later edit of its page replaces it, the user retries it (it is
 *    then sent alone) or drops it (RefusedChanges).
 * 5. Positions (`at`) are fitted to the change request's tree, read once per drain when a waiting
 *    change has one, as the batches sent before leave it (BatchPositions).
 * 6. At the end of the drain, pages whose Markdown was pushed are read back (once each, however
 *    many batches carried them) so the engine can write the server's normalised version without
 *    counting it as a local edit.
 *
 * One drain per space runs at a time in this process (later calls wait their turn). Two
 * processes draining the same cache are not coordinated: only the app drains; the CLI pauses.
 */
export class OutboxDrainer {
  private readonly db: CacheDb;
  private readonly outbox: Outbox;
  private readonly client: OutboxRemote;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly batches: OutboxBatches;
  private readonly working: WorkingChangeRequestTracker;
  private readonly pauses: SyncPause;
  private readonly settings: {
    baseDelayMs: number;
    maxDelayMs: number;
    maxWaits: number;
    readBack: boolean;
  };
  private readonly running = new Map<string, Promise<unknown>>();
  /** 409s per batch answered while its change request is still writable. */
  private readonly conflicts = new Map<string, number>();
  /** Aborted by pause(), to end a backoff wait early. */
  private wake = new AbortController();

  constructor(options: OutboxDrainerOptions) {
    this.db = options.db;
    this.outbox = options.outbox;
    this.client = options.client;
    this.clock = options.clock;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    const newKey = options.newKey ?? randomUUID;
    this.batches = new OutboxBatches(this.db, this.clock, newKey);
    this.pauses = new SyncPause(this.db, this.clock);
    const subject = `Edits from ${options.deviceName}`;
    this.working = new WorkingChangeRequestTracker({
      client: this.client,
      working: new WorkingChangeRequests(this.db),
      clock: this.clock,
      subjectFor: options.subject ?? (() => subject),
      newKey,
      expectedBase: options.expectedBase ?? (() => undefined),
      ...(options.pinned !== undefined ? { pinned: options.pinned } : {}),
    });
    this.settings = {
      baseDelayMs: options.offlineBaseDelayMs ?? DEFAULT_OFFLINE_BASE_MS,
      maxDelayMs: options.offlineMaxDelayMs ?? DEFAULT_OFFLINE_MAX_MS,
      maxWaits: options.maxOfflineWaits ?? Number.POSITIVE_INFINITY,
      readBack: options.readBack ?? true,
    };
  }

  /**
   * Pushes everything the space's outbox can send now. Resolves when it is drained, paused,
   * (with maxOfflineWaits) offline, or stopped by `signal`: checked between requests, never
   * during one, so a batch sent is always answered and settled (its answer holds the ids of
   * created pages). Rejects on errors waiting cannot fix (a revoked token, an incompatible
   * server), leaving every change in the outbox.
   */
  drain(spaceId: string, options: { signal?: AbortSignal } = {}): Promise<DrainResult> {
    const previous = this.running.get(spaceId) ?? Promise.resolve();
    const next = previous.then(
      () => this.run(spaceId, options.signal),
      () => this.run(spaceId, options.signal),
    );
    this.running.set(spaceId, next);
    const cleanup = () => {
      if (this.running.get(spaceId) === next) this.running.delete(spaceId);
    };
    next.then(cleanup, cleanup);
    return next;
  }

  /** Stops pushing (persisted) until `until`, or until resume(). A running wait ends at once. */
  pause(until?: Date): void {
    this.pauses.pause(until);
    this.wake.abort();
    this.wake = new AbortController();
  }

  resume(): void {
    this.pauses.resume();
  }

  pauseState(): PauseState {
    return this.pauses.state();
  }

  /**
   * The page tree of the space's working change request, read from the server; undefined when
   * there is none (or it is merged or archived), the remote cannot read trees, or the read fails
   * (the caller then does without: the drain reports an unreachable server itself).
   */
  async workingChangeRequestPages(spaceId: string): Promise<RemotePage[] | undefined> {
    return this.working.pages(spaceId);
  }

  /**
   * Whether the space's working change request may still hold pushed changes not on main: asks
   * the server, and retires it when merged, archived or gone. Unreachable: assumed open (the
   * caller then keeps the local side as it is).
   */
  async workingChangeRequestOpen(spaceId: string): Promise<boolean> {
    return this.working.isOpen(spaceId);
  }

  /**
   * After a pull that brought a new main: the working change request is brought up to date with
   * it, so it proposes only this device's edits against main as it is now. Otherwise a page
   * another user changed since the change request was made conflicts on merge even when the
   * local side took their version (a conflict resolved with --mine, or merged on pull). Only
   * when nothing is waiting to be sent (a batch in flight would land on a moving base); a page
   * changed on both sides leaves it as it is (`conflicts`), and any failure is left to the next
   * pull: this is housekeeping, never a reason to fail a sync.
   */
  async followMain(spaceId: string): Promise<'update' | 'conflicts' | 'skipped'> {
    if (this.outbox.unsent(spaceId) > 0) return 'skipped';
    return this.working.followMain(spaceId);
  }

  /** The space's working change request as last seen, if any. */
  workingChangeRequest(spaceId: string): OutboxChangeRequest | undefined {
    return this.working.current(spaceId);
  }

  private async run(spaceId: string, signal: AbortSignal | undefined): Promise<DrainResult> {
    const result = emptyDrainResult(spaceId);
    // Pages pushed in this drain, read back once at its end (one request for many pages).
    const toReadBack = new Map<string, PendingReadBack>();
    let waits = 0;
    let checked = false;
    // The change request's tree as this drain's batches leave it (read once, when a waiting
    // change has a position; null: not readable). Dropped after a refusal: the refused batch is
    // not in the server's tree.
    let positions: BatchPositions | null | undefined;
    for (;;) {
      if (signal?.aborted) {
        result.stopped = 'stopped';
        break;
      }
      if (this.pauses.state().paused) {
        result.stopped = 'paused';
        break;
      }
      try {
        let batch = this.batches.open(spaceId);
        if (!batch) {
          if (!this.batches.hasWaiting(spaceId)) break;
          const changeRequest = await this.working.ensure(spaceId, !checked);
          checked = true;
          // Stopped while the change request was asked for: no batch is formed, none sent.
          if (signal?.aborted) continue;
          if (positions === undefined && this.batches.hasPositions(spaceId)) {
            positions = (await this.treeOf(spaceId, changeRequest.id)) ?? null;
          }
          batch = this.batches.form(spaceId, changeRequest.id, positions ?? undefined);
          if (!batch) break;
        }
        const acknowledged = await this.send(batch, result, toReadBack, positions ?? undefined);
        if (!acknowledged) positions = undefined;
        waits = 0;
      } catch (error) {
        if (error instanceof MainMovedError) {
          result.stopped = 'moved';
          break;
        }
        if (error instanceof PinnedChangeRequestClosedError) {
          result.stopped = 'closed';
          break;
        }
        if (!(error instanceof RemoteUnavailableError) && !(error instanceof RetryLater)) {
          throw error;
        }
        if (waits >= this.settings.maxWaits) {
          result.stopped = 'offline';
          break;
        }
        waits++;
        await this.wait(
          Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** (waits - 1)),
          signal,
        );
      }
    }
    if (result.stopped === 'stopped') {
      // No request after a stop: the next pull brings the server's version of these pages.
      result.readBackMissed.push(...toReadBack.keys());
    } else {
      await readBackPages(this.client, spaceId, toReadBack, result);
    }
    result.changeRequest = this.workingChangeRequest(spaceId) ?? null;
    result.remaining = this.outbox.count(spaceId);
    return result;
  }

  /**
   * Sends one batch and settles it (acknowledged, failed or moved to a new change request).
   * Returns whether the server applied it; `positions` then learns the ids of its new pages.
   */
  private async send(
    batch: OutboxBatch,
    result: DrainResult,
    toReadBack: Map<string, PendingReadBack>,
    positions: BatchPositions | undefined,
  ): Promise<boolean> {
    this.batches.markSent(batch.id);
    let answer;
    try {
      answer = await this.client.updateChangeRequestContent(
        batch.spaceId,
        batch.changeRequestId,
        batch.body,
        { idempotencyKey: batch.id },
      );
    } catch (error) {
      await this.settleRefusal(batch, error, result);
      return false;
    }
    this.conflicts.delete(batch.id);
    for (const change of answer.changes) {
      if (change.object === 'created_page' && change.ref !== undefined) {
        positions?.created(change.ref, change.pageId);
      }
    }
    const acknowledged = this.batches.acknowledge(batch, answer);
    this.working.recordAnswer(batch.spaceId, answer.changeRequest);
    result.batches++;
    result.sent.push(...acknowledged.items);
    result.created.push(...acknowledged.created);
    result.insertedFiles.push(...acknowledged.insertedFiles);
    result.warnings.push(...acknowledged.warnings);
    if (this.settings.readBack) {
      for (const change of answer.changes) {
        if (change.object === 'deleted_page') toReadBack.delete(change.pageId);
      }
      for (const item of acknowledged.items) {
        if (
          (item.kind === 'insert_page' || item.kind === 'update_page') &&
          item.markdown !== undefined &&
          item.pageId !== null
        ) {
          // A later batch's content of the same page replaces an earlier one's.
          toReadBack.set(item.pageId, {
            changeRequestId: batch.changeRequestId,
            localKey: item.kind === 'insert_page' ? item.localKey : null,
            sentMarkdown: item.markdown,
          });
        }
      }
    }
    return true;
  }

  /** The change request's tree to fit positions to; undefined when it cannot be read. */
  private async treeOf(
    spaceId: string,
    changeRequestId: string,
  ): Promise<BatchPositions | undefined> {
    if (this.client.getChangeRequestPages === undefined) return undefined;
    try {
      return new BatchPositions(await this.client.getChangeRequestPages(spaceId, changeRequestId));
    } catch (error) {
      // Unreachable: the send fails the same way and waits; anything else, sent as computed.
      if (error instanceof RemoteUnavailableError) throw error;
      return undefined;
    }
  }

  private async settleRefusal(
    batch: OutboxBatch,
    error: unknown,
    result: DrainResult,
  ): Promise<void> {
    if (error instanceof RemoteNotFoundError) {
      // The change request is gone (or the space: then creating a new one fails the same way).
      if (await this.isWritable(batch)) throw error;
      await this.moveToNewChangeRequest(batch, 'its change request no longer exists');
      return;
    }
    if (!(error instanceof RemoteHttpError) || error instanceof RemoteRedirectError) throw error;
    const status = error.status ?? 0;
    if (status === 409) {
      // Merged or archived (nothing was applied there), or our key still being processed.
      if (await this.isWritable(batch)) {
        // Our key still in flight lasts seconds; a conflict that persists is a refusal.
        const seen = (this.conflicts.get(batch.id) ?? 0) + 1;
        this.conflicts.set(batch.id, seen);
        if (seen <= MAX_CONFLICT_RETRIES) {
          throw new RetryLater(`Batch ${batch.id} is still being processed: ${error.message}`);
        }
        this.conflicts.delete(batch.id);
        result.failed.push(...this.batches.fail(batch, error.message));
        return;
      }
      await this.moveToNewChangeRequest(batch, error.message);
      return;
    }
    if (status === 408) throw new RetryLater(error.message);
    if (status >= 400 && status < 500) {
      result.failed.push(...this.batches.fail(batch, error.message));
      return;
    }
    throw error;
  }

  /** Whether the batch's change request still takes content (404 and merged/archived: no). */
  private isWritable(batch: OutboxBatch): Promise<boolean> {
    return this.working.isWritable(batch.spaceId, batch.changeRequestId);
  }

  private async moveToNewChangeRequest(batch: OutboxBatch, reason: string): Promise<void> {
    this.working.retireIf(batch.spaceId, batch.changeRequestId);
    const next = await this.working.ensure(batch.spaceId, true);
    this.batches.rebind(batch, next.id, reason);
  }

  /** A backoff wait, cut short by pause() or by `signal` (the loop then sees which). */
  private async wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    const wake = this.wake.signal;
    try {
      await this.sleep(ms, signal ? AbortSignal.any([wake, signal]) : wake);
    } catch (error) {
      if (!wake.aborted && !signal?.aborted) throw error;
    }
  }
}
