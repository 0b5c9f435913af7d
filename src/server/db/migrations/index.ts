import type { Migration } from '../migration';
import { migration0001Core } from './0001-core';
import { migration0002Content } from './0002-content';
import { migration0003SsoTranslations } from './0003-sso-translations';
import { migration0004Sites } from './0004-sites';
import { migration0005OpenApi } from './0005-openapi';
import { migration0006GitSync } from './0006-git-sync';
import { migration0007GitSyncConfig } from './0007-gitsync-config';

/** Every migration, in the order they apply. Append only. */
export const migrations: readonly Migration[] = [
  migration0001Core,
  migration0002Content,
  migration0003SsoTranslations,
  migration0004Sites,
  migration0005OpenApi,
  migration0006GitSync,
  migration0007GitSyncConfig,
];
