import type { CacheMigration } from './cache-migration';

/**
 * The working change request's address in the server's app (`urls.app`), so `quire sync` and
 * `quire status` can say where the edits went. Null until the server is next heard from about it.
 */
export const migration0007WorkingChangeRequestUrl: CacheMigration = {
  version: 7,
  name: 'working-change-request-url',
  up(db) {
    db.exec('ALTER TABLE working_change_requests ADD COLUMN url TEXT');
  },
};
