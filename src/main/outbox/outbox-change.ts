/**
 * What the engine hands the outbox: one local edit, in terms of the published content API
 * (updateChangeRequestContent). Pages are named by their server id or, while their insert has not
 * been acknowledged, by the local key the engine gave the insert.
 */
import type { PageFields } from '../../shared/gitsync/page-fields';

/** A page: pushed (`pageId`) or inserted locally and not acknowledged yet (`localKey`). */
export type OutboxPageRef = { pageId: string } | { localKey: string };

/** Page metadata a change may set (RevisionPageUpdate of the published API). */
export interface OutboxPageFields extends PageFields {
  title?: string;
  slug?: string;
}

/** A move. `into` null is the top level, undefined keeps the parent; `at` indexes the siblings. */
export interface OutboxPlacement {
  into?: OutboxPageRef | null;
  at?: number;
}

/** A file to upload (insert_files). Bytes are sent base64 (the published limit is 1 MB). */
export interface OutboxFile {
  name: string;
  contentType: string;
  base64: string;
}

export type OutboxChange =
  | {
      kind: 'update_page';
      spaceId: string;
      page: OutboxPageRef;
      /** The page's whole new Markdown; omit to change only fields or placement. */
      markdown?: string;
      fields?: OutboxPageFields;
      move?: OutboxPlacement;
    }
  | {
      /** Same as an update carrying only `move`. */
      kind: 'move_page';
      spaceId: string;
      page: OutboxPageRef;
      move: OutboxPlacement;
    }
  | {
      kind: 'insert_page';
      spaceId: string;
      /**
       * Stable, unique per page of the space for as long as the outbox knows it (the path at
       * creation plus a creation stamp, say). Later changes to this page use `{ localKey }` until
       * the engine has learned its id (Outbox.created). Sent as the insert's batch-local `ref`.
       */
      localKey: string;
      markdown: string;
      fields?: OutboxPageFields;
      /** Parent: a page, or null / omitted for the top level. */
      into?: OutboxPageRef | null;
      at?: number;
    }
  | { kind: 'delete_page'; spaceId: string; page: OutboxPageRef }
  | {
      kind: 'insert_files';
      spaceId: string;
      /** Stable local id of the file (its path, say); a newer upload under the same key wins. */
      localKey: string;
      file: OutboxFile;
    };

export type OutboxItemKind = 'update_page' | 'insert_page' | 'delete_page' | 'insert_files';

/** One coalesced change waiting in the outbox. */
export interface OutboxItem {
  id: number;
  spaceId: string;
  kind: OutboxItemKind;
  /** Null for inserts and for changes to a page whose insert is not acknowledged yet. */
  pageId: string | null;
  localKey: string | null;
  /** pending: waiting; sending: in an unacknowledged batch; failed: refused by the server. */
  state: 'pending' | 'sending' | 'failed';
  markdown?: string;
  fields?: OutboxPageFields;
  /** Placement (updates) or parent and position (inserts). */
  into?: OutboxPageRef | null;
  at?: number;
  file?: OutboxFile;
  /** The server's message, for a failed change. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A page or file the outbox created, by the local key of its insert. */
export interface OutboxCreated {
  spaceId: string;
  kind: 'page' | 'file';
  localKey: string;
  remoteId: string;
  changeRequestId: string;
}
