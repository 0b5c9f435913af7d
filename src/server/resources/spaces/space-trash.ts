import type { ServerContext } from '../../server-context';

/**
 * Permanently removes spaces deleted longer ago than the retention period. Deleting the row
 * cascades to revisions, grants and custom-field values.
 */
export function sweepDeletedSpaces(ctx: ServerContext): number {
  const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.trashRetentionMs).toISOString();
  return ctx.db
    .prepare('DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ?')
    .run(cutoff).changes;
}
