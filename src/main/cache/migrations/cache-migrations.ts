import type { CacheMigration } from './cache-migration';
import { migration0001CacheCore } from './0001-cache-core';
import { migration0002Outbox } from './0002-outbox';
import { migration0003LocalEdits } from './0003-local-edits';

/** Every cache migration, in the order they apply. Append only. */
export const cacheMigrations: readonly CacheMigration[] = [
  migration0001CacheCore,
  migration0002Outbox,
  migration0003LocalEdits,
];
