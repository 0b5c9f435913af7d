import type { RemotePage } from '../sync-ports';
import type { OutboxPageFields } from './outbox-change';

/** The change request fields the outbox needs. */
export interface OutboxChangeRequest {
  id: string;
  number: number;
  /** draft, open, merged or archived (published ChangeRequestStatus). */
  status: string;
  subject: string;
  /** The main revision it was made from (`revisionInitial`), when the server says. */
  baseRevision?: string;
  /** Where a person opens it (`urls.app`), when the server says. */
  url?: string;
}

/** One change of an updateChangeRequestContent body, as the outbox sends it. */
export type ContentChange =
  | ({
      operation: 'insert_page';
      ref?: string;
      into?: string;
      at?: number;
      document: { markdown: string };
    } & OutboxPageFields)
  | ({
      operation: 'update_page';
      page: string;
      document?: { markdown: string };
      into?: string | null;
      at?: number;
    } & OutboxPageFields)
  | { operation: 'delete_page'; page: string }
  | {
      operation: 'insert_files';
      files: { ref?: string; name: string; contentType: string; base64: string }[];
    };

export interface ContentChangesBody {
  changes: ContentChange[];
}

/** The `compat=false` answer of updateChangeRequestContent (ChangeRequestContentUpdate). */
export interface ContentUpdateResult {
  changeRequest: OutboxChangeRequest;
  changes: (
    | { object: 'created_page'; ref?: string; pageId: string }
    | { object: 'updated_page'; pageId: string }
    | { object: 'deleted_page'; pageId: string }
  )[];
  /** Files created by the batch's insert_files changes, in the order they were inserted. */
  insertedFiles: { id: string; name: string }[];
}

/**
 * What the drainer needs from a workspace server. Every failure is a RemoteError (see
 * remote/errors.ts); calls carrying an Idempotency-Key send it on every retry.
 * WorkspaceOutboxRemote implements it over the WorkspaceClient.
 */
export interface OutboxRemote {
  createChangeRequest(
    spaceId: string,
    subject: string,
    options: { idempotencyKey: string },
  ): Promise<OutboxChangeRequest>;
  getChangeRequest(spaceId: string, changeRequestId: string): Promise<OutboxChangeRequest>;
  /** Applies a batch (≤ 50 changes) atomically; a replayed key answers the stored response. */
  updateChangeRequestContent(
    spaceId: string,
    changeRequestId: string,
    body: ContentChangesBody,
    options: { idempotencyKey: string },
  ): Promise<ContentUpdateResult>;
  /** A page of the change request with its stored Markdown (format=markdown). */
  getPage(spaceId: string, changeRequestId: string, pageId: string): Promise<RemotePage>;
  /**
   * Every document page of the change request with its stored Markdown, by page id, in one
   * request (pages the server sends without Markdown are left out).
   */
  getChangeRequestMarkdown(
    spaceId: string,
    changeRequestId: string,
  ): Promise<ReadonlyMap<string, string>>;
  /**
   * The change request's page tree as it is now (no Markdown), in one request. Optional: without
   * it the push places pages against a tree rebuilt from the synced revision and its own edits.
   */
  getChangeRequestPages?(spaceId: string, changeRequestId: string): Promise<RemotePage[]>;
  /**
   * Brings main's content into the change request (POST …/update): `update` when it now starts
   * from main as it is, `conflicts` when a page changed on both sides (nothing moved). Optional:
   * without it the change request keeps the base it was made from.
   */
  updateChangeRequestFromMain?(
    spaceId: string,
    changeRequestId: string,
  ): Promise<'update' | 'conflicts'>;
}
