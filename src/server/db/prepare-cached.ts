import type { Statement } from 'better-sqlite3';
import type { Db } from './open-database';

const caches = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement reused across requests: compiling SQL costs more than running a simple
 * query, and hot paths (lists, space reads) build the same few statements again and again.
 */
export function prepareCached<Params extends unknown[] = unknown[], Row = unknown>(
  db: Db,
  sql: string,
  options: { raw?: boolean } = {},
): Statement<Params, Row> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  // A raw statement (rows as arrays of values) is cached apart: the mode belongs to the statement.
  const key = options.raw ? `raw:${sql}` : sql;
  let statement = cache.get(key);
  if (!statement) {
    statement = db.prepare(sql);
    if (options.raw) statement.raw(true);
    // Dynamic SQL (filters) is bounded in shape, but keep the cache from growing without end.
    if (cache.size > 500) cache.clear();
    cache.set(key, statement);
  }
  return statement as unknown as Statement<Params, Row>;
}
