import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Db } from './db/open-database';
import type { Access } from './auth/access';
import type { FastReads } from './http/fast-reads';
import type { Urls } from './http/urls';

/** What every resource module is built from; nothing global, so tests can build many servers. */
export interface ServerContext {
  db: Db;
  clock: Clock;
  config: ServerConfig;
  access: Access;
  urls: Urls;
  /** Reads answered before Fastify's pipeline when they succeed (see FastReads). */
  fastReads: FastReads;
}
