import { RemoteError } from '../remote/errors';
import type { DrainResult } from './drain-result';
import type { OutboxRemote } from './outbox-remote';

/** A page pushed in this drain, waiting to be read back at its end. */
export interface PendingReadBack {
  changeRequestId: string;
  localKey: string | null;
  sentMarkdown: string;
}

/** Up to this many pushed pages are read back one by one; more, with one whole read. */
const PAGE_BY_PAGE_READ_BACK = 8;

/**
 * Reads back what a drain pushed: page by page for a few pages (a small read each), or the
 * whole change request in one request for more (a search-and-replace across a thousand pages
 * costs one read, not a thousand). A page that cannot be read goes to `readBackMissed`: it was
 * acknowledged already, so a failed read only costs the normalised copy until the next pull.
 */
export async function readBackPages(
  client: OutboxRemote,
  spaceId: string,
  pages: ReadonlyMap<string, PendingReadBack>,
  result: DrainResult,
): Promise<void> {
  const byChangeRequest = new Map<string, [string, PendingReadBack][]>();
  for (const entry of pages) {
    const group = byChangeRequest.get(entry[1].changeRequestId) ?? [];
    group.push(entry);
    byChangeRequest.set(entry[1].changeRequestId, group);
  }
  const settle = (pageId: string, pending: PendingReadBack, stored: string | undefined) => {
    if (stored === undefined) {
      result.readBackMissed.push(pageId);
      return;
    }
    result.readBack.push({
      pageId,
      localKey: pending.localKey,
      sentMarkdown: pending.sentMarkdown,
      storedMarkdown: stored,
    });
  };
  for (const [changeRequestId, group] of byChangeRequest) {
    try {
      if (group.length > PAGE_BY_PAGE_READ_BACK) {
        const stored = await client.getChangeRequestMarkdown(spaceId, changeRequestId);
        for (const [pageId, pending] of group) settle(pageId, pending, stored.get(pageId));
        continue;
      }
      await Promise.all(
        group.map(async ([pageId, pending]) => {
          try {
            const page = await client.getPage(spaceId, changeRequestId, pageId);
            settle(pageId, pending, page.markdown);
          } catch (error) {
            if (!(error instanceof RemoteError)) throw error;
            settle(pageId, pending, undefined);
          }
        }),
      );
    } catch (error) {
      if (!(error instanceof RemoteError)) throw error;
      for (const [pageId, pending] of group) settle(pageId, pending, undefined);
    }
  }
}
