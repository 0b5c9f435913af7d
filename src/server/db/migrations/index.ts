import type { Migration } from '../migration';
import { migration0001Core } from './0001-core';
import { migration0002Content } from './0002-content';
import { migration0003SsoTranslations } from './0003-sso-translations';
import { migration0005OpenApi } from './0005-openapi';

/**
 * Stands in for migration 0004 (assigned to another branch) so this list stays contiguous;
 * the real 0004 replaces it when the branches are merged.
 */
const migration0004Reserved: Migration = { version: 4, name: 'reserved', up: () => undefined };

/** Every migration, in the order they apply. Append only. */
export const migrations: readonly Migration[] = [
  migration0001Core,
  migration0002Content,
  migration0003SsoTranslations,
  migration0004Reserved,
  migration0005OpenApi,
];
