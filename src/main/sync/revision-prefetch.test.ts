import { describe, expect, it } from 'vitest';
import type { CachedSpace } from '../cache/space-cache';
import type { RemoteRevision } from '../sync-ports';
import type { EngineContext } from './engine-context';
import { RevisionPrefetch } from './revision-prefetch';
import { SyncRun } from './sync-run';

/** Spaces s0…s(n-1), and a context whose getRevision records each call. */
function setup(count: number) {
  const asked: string[] = [];
  const ctx = {
    remote: {
      getRevision: (spaceId: string, revisionId: string): Promise<RemoteRevision> => {
        asked.push(spaceId);
        return Promise.resolve({ id: revisionId, pages: [], files: [] });
      },
    },
    content: { knownPages: () => new Map<string, string>() },
  } as unknown as EngineContext;
  const spaces = Array.from(
    { length: count },
    (_, i) => ({ id: `s${i}`, remoteRevision: `r${i}` }) as CachedSpace,
  );
  return { ctx, spaces, asked };
}

describe('RevisionPrefetch', () => {
  it('keeps at most `ahead` revisions in flight or held, in order', async () => {
    const { ctx, spaces, asked } = setup(10);
    const prefetch = new RevisionPrefetch(ctx, new SyncRun(undefined, ''), spaces, 3);
    expect((await prefetch.take(0)).id).toBe('r0');
    expect(asked).toEqual(['s0', 's1', 's2']);
    expect((await prefetch.take(1)).id).toBe('r1');
    expect(asked).toEqual(['s0', 's1', 's2', 's3']);
    for (let i = 2; i < 10; i++) expect((await prefetch.take(i)).id).toBe(`r${i}`);
    expect(asked).toEqual(spaces.map((space) => space.id));
  });

  it('starts nothing ahead once the run is asked to stop', async () => {
    const { ctx, spaces, asked } = setup(5);
    const stop = new AbortController();
    const prefetch = new RevisionPrefetch(ctx, new SyncRun(stop.signal, ''), spaces, 3);
    await prefetch.take(0);
    stop.abort();
    await prefetch.take(1);
    expect(asked).toEqual(['s0', 's1', 's2']);
  });
});
