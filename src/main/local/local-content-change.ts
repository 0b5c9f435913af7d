/**
 * The content changes local edits become: the published API's `ChangeRequestContentChange`
 * operations that local change detection produces (no `revert_page`). The desktop never imports
 * server code; these mirror the published shapes (`@gitbook/api`), and a test checks they are
 * assignable to them.
 */
import type { PageFields } from '../../shared/gitsync/page-fields';

/**
 * RevisionPageUpdate: page metadata settable on insert and update. An empty `emoji`, `icon` or
 * `description` removes it.
 */
export interface PageFieldsUpdate extends PageFields {
  title?: string;
  slug?: string;
}

export interface MarkdownDocument {
  markdown: string;
}

export interface InsertPageChange extends PageFieldsUpdate {
  operation: 'insert_page';
  /** The parent page; omitted for a top-level page. */
  into?: string;
  /** Index among the new siblings; omitted to append. */
  at?: number;
  /** Batch-local reference: the response's `created_page` carries it, naming the new page's id. */
  ref?: string;
  document: MarkdownDocument;
}

export interface UpdatePageChange extends PageFieldsUpdate {
  operation: 'update_page';
  page: string;
  document?: MarkdownDocument;
  /** The new parent (`null`: the top level); omitted to keep the parent. */
  into?: string | null;
  /** Index among the siblings after the page is taken out of its old place. */
  at?: number;
}

export interface DeletePageChange {
  operation: 'delete_page';
  page: string;
}

export interface InsertFilesChange {
  operation: 'insert_files';
  /** At most 20 per change. */
  files: { name: string; contentType: string; base64: string }[];
}

export type LocalContentChange =
  InsertPageChange | UpdatePageChange | DeletePageChange | InsertFilesChange;

/** The API's limit of files in one `insert_files`. */
export const MAX_FILES_PER_INSERT = 20;
