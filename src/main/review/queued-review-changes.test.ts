import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { QueuedReviewChanges } from './queued-review-changes';

let dir: string;
let db: CacheDb;
const CR = { spaceId: 's1', changeRequestId: 'cr1', number: 3 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-queued-review-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('QueuedReviewChanges', () => {
  it('keeps one entry per change request, the latest values winning, across a reopen', () => {
    const queue = new QueuedReviewChanges(db);
    queue.add({ ...CR, subject: 'One', queuedAt: 't1' });
    queue.add({ ...CR, status: 'open', queuedAt: 't2' });
    queue.add({ ...CR, subject: 'Two', queuedAt: 't3' });
    db.close();
    db = openCacheDatabase(join(dir, 'cache.db'));
    expect(new QueuedReviewChanges(db).list()).toEqual([
      { ...CR, subject: 'Two', status: 'open', queuedAt: 't1' },
    ]);
  });

  it('drops a sent entry, keeps a refused one marked, and forgets values sent since', () => {
    const queue = new QueuedReviewChanges(db);
    queue.add({ ...CR, subject: 'One', status: 'open', queuedAt: 't1' });
    queue.supersede('cr1', ['subject']);
    expect(queue.list()).toEqual([{ ...CR, status: 'open', queuedAt: 't1' }]);
    queue.settle(queue.list()[0]!, 'merged already');
    expect(queue.list()).toEqual([
      { ...CR, status: 'open', queuedAt: 't1', refused: 'merged already' },
    ]);
    queue.add({ ...CR, subject: 'Three', queuedAt: 't4' });
    queue.settle(queue.list()[1]!);
    expect(queue.list()).toHaveLength(1);
    queue.supersede('cr1', ['status']);
    expect(queue.list()).toHaveLength(1);
  });
});
