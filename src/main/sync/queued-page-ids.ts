import type { FileIndexEntry } from '../cache/file-index';
import type { LocalEdit } from '../cache/local-edits';
import type { OutboxPageRef } from '../outbox/outbox-change';

/**
 * The id the classifier knows a queued, not yet acknowledged, new page by: its insert's local key
 * behind a prefix no server id has. Changes naming it go to the outbox by local key (which
 * coalesces them into the waiting insert, or applies them once the insert is acknowledged), and
 * it is never stored as a page id.
 */
const QUEUED_PAGE = '\u0000queued:';

/** Whether a page id is a queued new page's (see QUEUED_PAGE). */
export function isQueuedPageId(id: string): boolean {
  return id.startsWith(QUEUED_PAGE);
}

const queuedPageId = (localKey: string) => `${QUEUED_PAGE}${localKey}`;

/** A page id from the classifier → how the outbox names the page. */
export function pageRef(id: string): OutboxPageRef {
  return id.startsWith(QUEUED_PAGE) ? { localKey: id.slice(QUEUED_PAGE.length) } : { pageId: id };
}

/** A page id from the classifier → what an edit row records: the id, or the insert's key. */
export function storedIdentity(id: string | null): {
  pageId: string | null;
  localKey: string | null;
} {
  if (id?.startsWith(QUEUED_PAGE)) return { pageId: null, localKey: id.slice(QUEUED_PAGE.length) };
  return { pageId: id, localKey: null };
}

/** Edit rows of new pages whose insert is not acknowledged get their queued page id. */
export function withQueuedPageIds(edits: readonly LocalEdit[]): LocalEdit[] {
  return edits.map((edit) =>
    edit.kind === 'page' &&
    edit.pageId === null &&
    edit.localKey !== null &&
    edit.contentHash !== null
      ? { ...edit, pageId: queuedPageId(edit.localKey) }
      : edit,
  );
}

/** The push side's index view with the queued new pages' files naming their queued page ids. */
export function viewWithQueuedPages(
  view: readonly FileIndexEntry[],
  edits: readonly LocalEdit[],
): FileIndexEntry[] {
  const queued = new Map(
    edits
      .filter((edit) => edit.pageId?.startsWith(QUEUED_PAGE) === true)
      .map((edit) => [edit.path, edit.pageId]),
  );
  return view.map((entry) =>
    queued.has(entry.path) && entry.pageId === null
      ? { ...entry, pageId: queued.get(entry.path)! }
      : entry,
  );
}
