import type { SqliteMigration } from '../../../common/sqlite/sqlite-migration';

/** One step of the cache schema (the runner is shared with the server). */
export type CacheMigration = SqliteMigration;
