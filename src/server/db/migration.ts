import type { SqliteMigration } from '../../common/sqlite/sqlite-migration';

/** One step of the server schema (the runner is shared with the desktop cache). */
export type Migration = SqliteMigration;
