import type { Migration } from '../migration';
import { migration0001Core } from './0001-core';

/** Every migration, in the order they apply. Append only. */
export const migrations: readonly Migration[] = [migration0001Core];
