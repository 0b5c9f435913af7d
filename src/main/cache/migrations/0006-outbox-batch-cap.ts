import type { CacheMigration } from './cache-migration';

/**
 * The largest batch a waiting change may be sent in (0: no cap). A batch the server refuses
 * without naming the change at fault is split in halves (OutboxBatches.fail): its changes are
 * capped at half its size, then half again, until the refused change goes alone and the others
 * are sent without it.
 */
export const migration0006OutboxBatchCap: CacheMigration = {
  version: 6,
  name: 'outbox-batch-cap',
  up(db) {
    db.exec('ALTER TABLE outbox ADD COLUMN batch_cap INTEGER NOT NULL DEFAULT 0');
  },
};
