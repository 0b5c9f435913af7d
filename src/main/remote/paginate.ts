import { RemoteProtocolError } from './errors';

/** The published list envelope: `{ items, next?: { page }, count? }`. Extra fields are ignored. */
export interface ListPage<T> {
  items: T[];
  next?: { page: string } | undefined;
}

/** Reads one page: `page` is undefined for the first one, then the previous `next.page`. */
export type PageReader<T> = (page: string | undefined) => Promise<ListPage<T>>;

export interface PaginateOptions {
  /** Stop with an error after this many pages (default 1000): a server that never ends a list. */
  maxPages?: number;
}

/**
 * Follows `next.page` until a page has none. A cursor seen before, or more than `maxPages` pages,
 * is a server bug that would otherwise loop forever: both end in RemoteProtocolError.
 */
export async function* iteratePages<T>(
  read: PageReader<T>,
  options: PaginateOptions = {},
): AsyncGenerator<T[], void, undefined> {
  const maxPages = options.maxPages ?? 1000;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let count = 1; ; count++) {
    const page = await read(cursor);
    if (!page || !Array.isArray(page.items)) {
      throw new RemoteProtocolError('A list response has no `items` array');
    }
    yield page.items;
    const next = page.next?.page;
    if (typeof next !== 'string' || next === '') return;
    if (seen.has(next)) throw new RemoteProtocolError(`A list returned the cursor "${next}" twice`);
    if (count >= maxPages) {
      throw new RemoteProtocolError(`A list has more than ${maxPages} pages; stopped following it`);
    }
    seen.add(next);
    cursor = next;
  }
}

/** Every item of every page, in order. */
export async function collectPages<T>(
  read: PageReader<T>,
  options: PaginateOptions = {},
): Promise<T[]> {
  const all: T[] = [];
  for await (const items of iteratePages(read, options)) all.push(...items);
  return all;
}
