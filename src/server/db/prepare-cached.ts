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
): Statement<Params, Row> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    // Dynamic SQL (filters) is bounded in shape, but keep the cache from growing without end.
    if (cache.size > 500) cache.clear();
    cache.set(sql, statement);
  }
  return statement as unknown as Statement<Params, Row>;
}
