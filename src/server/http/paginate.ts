import { createHash } from 'node:crypto';
import type { Db } from '../db/open-database';
import { allPlain } from '../db/plain-rows';
import { prepareCached } from '../db/prepare-cached';
import { badRequest } from './api-error';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface PageQuery {
  page?: string | undefined;
  limit?: number | undefined;
}

export interface KeysetQuery {
  /** `SELECT … FROM …` with no WHERE, ORDER BY or LIMIT. */
  from: string;
  /** AND-ed conditions (bound with `params`). */
  where: string[];
  params: unknown[];
  /** Non-null sort expressions; the last must be unique so the order is total. */
  orderBy: string[];
  direction: 'ASC' | 'DESC';
  /** The values of `orderBy` for a row, in the same order. */
  keyOf(row: Record<string, unknown>): unknown[];
  /** What the cursor belongs to (list and filters), so a cursor is never reused on another list. */
  scope: string;
  /**
   * A cheaper statement counting the same rows (`SELECT count(*) AS n …`, with its parameters),
   * for lists whose `from` joins tables that cannot change the count; by default the count runs
   * over `from` and `where`.
   */
  count?: { sql: string; params: unknown[] };
}

export interface Page<Row> {
  rows: Row[];
  next: string | undefined;
  count: number;
}

interface Cursor {
  k: unknown[];
  s: string;
}

function scopeHash(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

/**
 * Keyset pagination: the cursor holds the sort key of the last item served, so items added or
 * removed elsewhere in the list never shift a page (no duplicates, no gaps), unlike offsets.
 */
export function paginate<Row extends object>(
  db: Db,
  query: KeysetQuery,
  page: PageQuery,
): Page<Row> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const scope = scopeHash(query.scope);
  const where = [...query.where];
  const params = [...query.params];
  const countSql =
    query.count?.sql ??
    `SELECT count(*) AS n FROM (${query.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''})`;
  const count = (
    prepareCached(db, countSql).get(...(query.count?.params ?? params)) as { n: number }
  ).n;

  if (page.page) {
    const cursor = decodeCursor(page.page);
    if (cursor.s !== scope || cursor.k.length !== query.orderBy.length) {
      throw badRequest('query.page is a cursor from a different list or filter');
    }
    const op = query.direction === 'DESC' ? '<' : '>';
    where.push(`(${query.orderBy.join(', ')}) ${op} (${query.orderBy.map(() => '?').join(', ')})`);
    params.push(...cursor.k);
  }
  const order = query.orderBy.map((column) => `${column} ${query.direction}`).join(', ');
  const sql = `${query.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`;
  const rows = allPlain<Row>(prepareCached(db, sql, { raw: true }), ...params, limit + 1);
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  const last = rows[rows.length - 1];
  const next =
    hasMore && last
      ? encodeCursor({ k: query.keyOf(last as Record<string, unknown>), s: scope })
      : undefined;
  return { rows, next, count };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(page: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as unknown;
    if (
      parsed &&
      typeof parsed === 'object' &&
      Array.isArray((parsed as Cursor).k) &&
      typeof (parsed as Cursor).s === 'string' &&
      (parsed as Cursor).k.every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      return parsed as Cursor;
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('query.page is not a valid page cursor');
}

/**
 * The list envelope of the spec: `{ items, next?: { page }, count }`, its keys in the order
 * Fastify's serializer writes them (required first), so pages encoded by the fast reads
 * (JSON.stringify) have the same bytes.
 */
export function listEnvelope<T>(items: T[], next: string | undefined, count: number) {
  return next ? { items, count, next: { page: next } } : { items, count };
}

/** Paginates a list already held in memory (small, computed lists), with the same cursor rules. */
export function paginateArray<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  page: PageQuery,
  scope: string,
): { items: T[]; next: string | undefined; count: number } {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const hashedScope = scopeHash(scope);
  let start = 0;
  if (page.page) {
    const cursor = decodeCursor(page.page);
    if (cursor.s !== hashedScope || cursor.k.length !== 1) {
      throw badRequest('query.page is a cursor from a different list or filter');
    }
    // Items are sorted by key; resume after the last key served even if it was since removed.
    const after = String(cursor.k[0]);
    start = items.findIndex((item) => keyOf(item) > after);
    if (start < 0) start = items.length;
  }
  const slice = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  const last = slice[slice.length - 1];
  const next = hasMore && last ? encodeCursor({ k: [keyOf(last)], s: hashedScope }) : undefined;
  return { items: slice, next, count: items.length };
}
