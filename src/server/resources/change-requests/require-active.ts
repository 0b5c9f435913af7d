import { conflict } from '../../http/api-error';
import type { ChangeRequestRow } from './change-request-queries';

/** Statuses whose content may still change (written to, updated from main, merged). */
export function requireActive(row: ChangeRequestRow, action: string): void {
  if (row.status === 'merged' || row.status === 'archived') {
    throw conflict(
      `Change request ${row.number} is ${row.status}: it cannot be ${action}` +
        (row.status === 'archived' ? ' (set its status to open or draft first)' : ''),
    );
  }
}
