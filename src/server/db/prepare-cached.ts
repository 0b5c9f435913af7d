import type { Statement } from 'better-sqlite3';
import { StatementCache } from '../../common/sqlite/statement-cache';
import type { Db } from './open-database';

const caches = new WeakMap<Db, StatementCache>();

/** Dynamic SQL (filters) is bounded in shape; past this many statements the cache starts over. */
const MAX_PREPARED_STATEMENTS = 501;

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
    cache = new StatementCache(MAX_PREPARED_STATEMENTS);
    caches.set(db, cache);
  }
  // A raw statement (rows as arrays of values) is cached apart: the mode belongs to the statement.
  const key = options.raw ? `raw:${sql}` : sql;
  const statement = cache.get(key, () => {
    const compiled = db.prepare(sql);
    if (options.raw) compiled.raw(true);
    return compiled;
  });
  return statement as unknown as Statement<Params, Row>;
}
