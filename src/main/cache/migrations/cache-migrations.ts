import type { CacheMigration } from './cache-migration';
import { migration0001CacheCore } from './0001-cache-core';
import { migration0002Outbox } from './0002-outbox';
import { migration0003LocalEdits } from './0003-local-edits';
import { migration0004Conflicts } from './0004-conflicts';
import { migration0005LocalEditFileIds } from './0005-local-edit-file-ids';
import { migration0006OutboxBatchCap } from './0006-outbox-batch-cap';
import { migration0007WorkingChangeRequestUrl } from './0007-working-change-request-url';
import { migration0008Activity } from './0008-activity';
import { migration0009PendingWriteSources } from './0009-pending-write-sources';
import { migration0010ChangeRequests } from './0010-change-requests';
import { migration0011Comments } from './0011-comments';
import { migration0012Checkouts } from './0012-checkouts';

/** Every cache migration, in the order they apply. Append only. */
export const cacheMigrations: readonly CacheMigration[] = [
  migration0001CacheCore,
  migration0002Outbox,
  migration0003LocalEdits,
  migration0004Conflicts,
  migration0005LocalEditFileIds,
  migration0006OutboxBatchCap,
  migration0007WorkingChangeRequestUrl,
  migration0008Activity,
  migration0009PendingWriteSources,
  migration0010ChangeRequests,
  migration0011Comments,
  migration0012Checkouts,
];
