import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../shared/contract/activity';
import type { RefusedChangeListing } from '../../../shared/contract/local-changes';
import type { SpaceStatus } from '../../../shared/contract/spaces';
import { mergeActivity } from './activity-view';
import { plural, relativeTime } from './format-time';
import { pauseUntil } from './pause-choice';
import { problemAction, unlistedRefused } from './problem-view';
import { parseRoute, routeHash } from './route';
import { groupByOrganization, spaceStateView } from './spaces-view';

function space(id: string, title: string, organization: string): SpaceStatus {
  return {
    id,
    title,
    organization,
    folder: title,
    enabled: true,
    state: 'synced',
    revision: 'r1',
    remoteRevision: 'r1',
    pages: 1,
    lastSync: null,
    errors: [],
  };
}

describe('groupByOrganization', () => {
  it('groups spaces by organization, both sorted by title', () => {
    const groups = groupByOrganization([
      space('1', 'Zeta', 'Beta org'),
      space('2', 'alpha', 'Beta org'),
      space('3', 'Docs', 'acme'),
    ]);
    expect(groups.map((g) => [g.organization, g.spaces.map((s) => s.title)])).toEqual([
      ['acme', ['Docs']],
      ['Beta org', ['alpha', 'Zeta']],
    ]);
  });

  it('names every space state in words', () => {
    expect(spaceStateView('disabled')).toEqual({ label: 'Not synced', tone: 'neutral' });
    expect(spaceStateView('error').tone).toBe('danger');
  });
});

describe('problemAction', () => {
  const refused: RefusedChangeListing = {
    id: 7,
    spaceId: 's',
    kind: 'update_page',
    path: 'Docs/a.md',
    reason: 'Too long',
    holds: [],
  };

  it('offers the action that fixes each problem', () => {
    const base = { path: 'Docs/a.md', message: 'm', spaceId: 's' };
    expect(problemAction({ ...base, kind: 'push-blocked' }, [])).toEqual({
      kind: 'confirm-deletes',
      spaceId: 's',
    });
    expect(problemAction({ ...base, kind: 'push-failed' }, [refused])).toEqual({
      kind: 'retry-or-drop',
      refused,
    });
    expect(problemAction({ ...base, kind: 'push-failed' }, []).kind).toBe('none');
    expect(problemAction({ ...base, kind: 'not-pushed' }, []).kind).toBe('fix-file');
    expect(problemAction({ ...base, kind: 'conflict' }, []).kind).toBe('resolve-conflict');
  });

  it('lists a refused change the status does not show, once', () => {
    const shown = { path: 'Docs/a.md', message: 'm', spaceId: 's', kind: 'push-failed' as const };
    const other = { ...refused, id: 8, path: 'Docs/b.md' };
    expect(unlistedRefused([shown], [refused, other])).toEqual([other]);
  });
});

describe('mergeActivity', () => {
  const entry = (id: number, at: string): ActivityEntry => ({
    id,
    at,
    kind: 'pulled',
    spaceId: null,
    spaceTitle: null,
    summary: `#${id}`,
    files: [],
  });

  it('puts the newest first, without duplicates, up to the limit', () => {
    const loaded = [entry(2, '2026-01-02T00:00:00Z'), entry(1, '2026-01-01T00:00:00Z')];
    const added = [entry(3, '2026-01-03T00:00:00Z'), entry(2, '2026-01-02T00:00:00Z')];
    expect(mergeActivity(loaded, added, 10).map((e) => e.id)).toEqual([3, 2, 1]);
    expect(mergeActivity(loaded, added, 2).map((e) => e.id)).toEqual([3, 2]);
  });
});

describe('routes', () => {
  it('reads the screen from the hash and writes it back', () => {
    expect(parseRoute('#/conflicts/12')).toEqual({ screen: 'conflict', id: 12 });
    expect(parseRoute('#/problems')).toEqual({ screen: 'problems' });
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'spaces' });
    expect(parseRoute('')).toEqual({ screen: 'spaces' });
    expect(parseRoute('#/conflicts/javascript:alert(1)')).toEqual({ screen: 'conflicts' });
    expect(routeHash({ screen: 'conflict', id: 4 })).toBe('#/conflicts/4');
  });
});

describe('times and counts', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  it('says how long ago', () => {
    expect(relativeTime('2026-03-01T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-03-01T11:59:00Z', now)).toBe('1 minute ago');
    expect(relativeTime('2026-03-01T09:00:00Z', now)).toBe('3 hours ago');
    expect(relativeTime('2026-02-28T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-01-01T12:00:00Z', now)).toBe('2026-01-01');
    expect(relativeTime('garbage', now)).toBe('at an unknown time');
  });

  it('counts in words, and ends a pause at the chosen time', () => {
    expect([plural(1, 'change'), plural(2, 'change')]).toEqual(['1 change', '2 changes']);
    expect(pauseUntil('30m', now)).toBe('2026-03-01T12:30:00.000Z');
    expect(pauseUntil('1h', now)).toBe('2026-03-01T13:00:00.000Z');
    expect(pauseUntil('resume', now)).toBeNull();
  });
});
