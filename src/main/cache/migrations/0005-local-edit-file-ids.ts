import type { CacheMigration } from './cache-migration';

/**
 * The server id of a file uploaded by a push (insert_files), on its `local_edits` row: until a
 * pulled revision indexes the upload, pages pushed meanwhile must reference it as `/files/<id>`,
 * and the push side must know that the file at that path is that upload.
 */
export const migration0005LocalEditFileIds: CacheMigration = {
  version: 5,
  name: 'local-edit-file-ids',
  up(db) {
    db.exec('ALTER TABLE local_edits ADD COLUMN file_id TEXT');
  },
};
