import type { Migration } from '../migration';

/**
 * Placeholder for the git-url branch's migration 0006 (versions must be contiguous): the merge
 * of that branch replaces this file and its line in index.ts. Its one table only satisfies the
 * migration checks (every migration declares a table).
 */
export const migration0006Reserved: Migration = {
  version: 6,
  name: 'reserved-git-url',
  up(db) {
    db.exec('CREATE TABLE reserved_0006 (id INTEGER PRIMARY KEY)');
  },
};
