import type { OutboxItem } from './outbox-change';
import type { OutboxChangeRequest } from './outbox-remote';

/** A pushed page as sent and as the server stored it (they differ by its normalisation). */
export interface ReadBack {
  pageId: string;
  /** The insert's local key, for a page created by this push. */
  localKey: string | null;
  sentMarkdown: string;
  storedMarkdown: string;
}

export interface DrainResult {
  spaceId: string;
  /**
   * drained: nothing left that can be sent (failed changes, and changes waiting for a failed
   * insert, stay); paused: a pause is on; offline: gave up after `maxOfflineWaits`; stopped:
   * `signal` aborted (the batch in flight was answered and settled, the rest stays queued);
   * moved: the working change request just created starts from a main newer than the local
   * edits' base (see `expectedBase`): nothing was sent, the edits wait for a pull; closed: the
   * fixed change request of a checkout is merged or archived: the edits stay queued.
   */
  stopped: 'drained' | 'paused' | 'offline' | 'stopped' | 'moved' | 'closed';
  /** The working change request at the end, when there is one. */
  changeRequest: OutboxChangeRequest | null;
  /** Batches acknowledged, and the changes they carried. */
  batches: number;
  sent: OutboxItem[];
  /** Pages and files created, by local key (also kept in Outbox.created until forgotten). */
  created: { localKey: string; pageId: string }[];
  insertedFiles: { localKey: string; fileId: string }[];
  /** Every page whose Markdown was pushed, read back. */
  readBack: ReadBack[];
  /** Pages that could not be read back (the next pull brings their stored version). */
  readBackMissed: string[];
  /** Changes the server refused during this drain (see Outbox.failed). */
  failed: OutboxItem[];
  warnings: string[];
  /** Changes of the space still in the outbox, failed ones included. */
  remaining: number;
}

/** A drain's result before it sent anything. */
export function emptyDrainResult(spaceId: string): DrainResult {
  return {
    spaceId,
    stopped: 'drained',
    changeRequest: null,
    batches: 0,
    sent: [],
    created: [],
    insertedFiles: [],
    readBack: [],
    readBackMissed: [],
    failed: [],
    warnings: [],
    remaining: 0,
  };
}
