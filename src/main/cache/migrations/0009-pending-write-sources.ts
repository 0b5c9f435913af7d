import type { CacheMigration } from './cache-migration';

/**
 * Which download a pending asset write came from (its URL without the signed query): a sync that
 * was stopped midway recognises the files it already downloaded for the same revision's file and
 * does not fetch them again. Null for texts and for rows written before this migration.
 */
export const migration0009PendingWriteSources: CacheMigration = {
  version: 9,
  name: 'pending-write-sources',
  up(db) {
    db.exec('ALTER TABLE pending_writes ADD COLUMN source TEXT');
  },
};
