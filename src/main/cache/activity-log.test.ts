import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActivityLog, type NewActivity } from './activity-log';
import { openCacheDatabase, type CacheDb } from './open-cache-database';

let dir: string;
let db: CacheDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-activity-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const line = (n: number): NewActivity => ({
  at: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
  kind: 'pushed',
  spaceId: 's-1',
  spaceTitle: 'Handbook',
  summary: `Pushed ${n} changes`,
  files: [`Acme/Handbook/${n}.md`],
});

describe('ActivityLog', () => {
  it('lists newest first and keeps only the last entries', () => {
    const log = new ActivityLog(db, 3);
    const stored = log.add([line(1), line(2)]);
    expect(stored.map((entry) => entry.summary)).toEqual(['Pushed 1 changes', 'Pushed 2 changes']);
    log.add([line(3), line(4), line(5)]);
    expect(log.list().map((entry) => entry.summary)).toEqual([
      'Pushed 5 changes',
      'Pushed 4 changes',
      'Pushed 3 changes',
    ]);
    expect(log.list(1)).toEqual([{ id: stored[1]!.id + 3, ...line(5) }]);
    // Durable: another instance over the same cache reads the same lines.
    expect(new ActivityLog(db).list()).toHaveLength(3);
  });
});
