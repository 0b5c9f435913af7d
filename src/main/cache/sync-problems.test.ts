import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from './open-cache-database';
import { SyncProblems } from './sync-problems';
import { SyncStateStore } from './sync-state-store';

let dir: string;
let db: CacheDb;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-problems-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const problem = (path: string) => ({
  spaceId: 's1',
  kind: 'kept-deleted' as const,
  path,
  pageId: 'p1',
  message: `kept ${path}`,
  createdAt: 'now',
});

describe('SyncProblems', () => {
  it('records a problem once per space, kind and path, until resolved', () => {
    const problems = new SyncProblems(db);
    problems.add(problem('a.md'));
    problems.add(problem('a.md'));
    problems.add(problem('b.md'));
    expect(problems.list('s1').map((p) => p.path)).toEqual(['a.md', 'b.md']);
    expect(problems.list('s2')).toEqual([]);
    problems.resolve('s1', 'kept-deleted', 'a.md');
    const [left] = problems.list();
    expect(left).toMatchObject({ path: 'b.md', message: 'kept b.md' });
    problems.remove(left!.id);
    expect(problems.list()).toEqual([]);
  });
});

describe('SyncStateStore', () => {
  it('keeps flags by key', () => {
    const state = new SyncStateStore(db);
    expect(state.get('k')).toBeUndefined();
    state.set('k', 'a');
    state.set('k', 'b');
    expect(state.get('k')).toBe('b');
  });
});
