import { describe, expect, it } from 'vitest';
import type { SyncProblem } from '../cache/sync-problems';
import type { SpaceStatus } from './sync-engine';
import { buildSyncStatus, type SyncStatusSource } from './sync-status-model';

function space(
  id: string,
  overrides: Partial<Omit<SpaceStatus, 'conflicts'>> & { conflicts?: number } = {},
): SpaceStatus {
  return {
    id,
    organizationId: 'o-1',
    organization: 'Acme',
    title: id.toUpperCase(),
    folder: `Acme/${id}`,
    enabled: true,
    state: 'synced',
    revision: 'r-1',
    remoteRevision: 'r-1',
    pages: 3,
    lastSync: '2026-01-01T00:00:00.000Z',
    errors: [],
    problems: [],
    ...overrides,
  } as SpaceStatus;
}

function problem(kind: SyncProblem['kind'], path: string | null, message: string): SyncProblem {
  return { id: 1, spaceId: 's', kind, path, pageId: null, message, createdAt: '' };
}

function source(
  spaces: SpaceStatus[],
  options: { pending?: Record<string, number>; paused?: Date | null } = {},
): SyncStatusSource {
  return {
    status: () => spaces,
    pendingChanges: (spaceId) =>
      spaceId === undefined
        ? Object.values(options.pending ?? {}).reduce((a, b) => a + b, 0)
        : (options.pending?.[spaceId] ?? 0),
    pauseState: () =>
      options.paused === undefined
        ? { paused: false, until: null }
        : { paused: true, until: options.paused },
  };
}

describe('buildSyncStatus', () => {
  it('is idle when everything is synced, with counts per space and the latest sync', () => {
    const status = buildSyncStatus(
      source([space('a'), space('b', { lastSync: '2026-02-01T00:00:00.000Z' })]),
    );
    expect(status).toMatchObject({
      state: 'idle',
      pending: 0,
      lastSync: '2026-02-01T00:00:00.000Z',
      paused: false,
      conflicts: 0,
      error: null,
      problems: [],
    });
    expect(status.spaces.map((s) => [s.id, s.state, s.pending])).toEqual([
      ['a', 'synced', 0],
      ['b', 'synced', 0],
    ]);
  });

  it('lists files not pushed with their path in the mirror, and counts conflicts apart', () => {
    const status = buildSyncStatus(
      source(
        [
          space('a', {
            problems: [
              problem('not-pushed', 'guides/setup.md', 'invalid frontmatter'),
              problem('conflict', 'README.md', 'edited on both sides'),
              problem('push-blocked', null, 'too many deletions'),
            ],
          }),
        ],
        { pending: { a: 2 } },
      ),
    );
    expect(status.state).toBe('conflicts');
    expect(status.conflicts).toBe(1);
    expect(status.pending).toBe(2);
    expect(status.spaces[0]).toMatchObject({ pending: 2, conflicts: 1 });
    expect(status.problems).toEqual([
      {
        path: 'Acme/a/guides/setup.md',
        message: 'invalid frontmatter',
        spaceId: 'a',
        kind: 'not-pushed',
      },
      { path: 'Acme/a', message: 'too many deletions', spaceId: 'a', kind: 'push-blocked' },
    ]);
  });

  it('says problems, not conflicts, when files wait for the user but no conflict does', () => {
    const status = buildSyncStatus(
      source([space('a', { problems: [problem('push-failed', 'x.md', 'refused')] })]),
    );
    expect(status).toMatchObject({ state: 'problems', conflicts: 0 });
    expect(status.problems).toHaveLength(1);
  });

  it('puts the most urgent state first: syncing, offline, error, paused, conflicts, problems', () => {
    const messy = source(
      [
        space('a', { problems: [problem('conflict', 'x.md', 'both')] }),
        space('b', { state: 'error', errors: ['disk full'] }),
      ],
      { paused: null },
    );
    const runtime = { syncing: false, offline: false, error: null, lastRun: null };
    expect(buildSyncStatus(messy, { ...runtime, syncing: true }).state).toBe('syncing');
    expect(buildSyncStatus(messy, { ...runtime, offline: true, error: 'no route' })).toMatchObject({
      state: 'offline',
      error: 'no route',
    });
    expect(buildSyncStatus(messy, runtime)).toMatchObject({
      state: 'error',
      error: 'B: disk full',
    });
    const paused = source([space('a', { problems: [problem('conflict', 'x.md', 'both')] })], {
      paused: new Date('2030-01-01T00:00:00.000Z'),
    });
    expect(buildSyncStatus(paused)).toMatchObject({
      state: 'paused',
      pausedUntil: '2030-01-01T00:00:00.000Z',
    });
  });
});
