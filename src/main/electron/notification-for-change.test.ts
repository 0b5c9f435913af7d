import { describe, expect, it } from 'vitest';
import type { SyncStatusProblem } from '../../shared/contract/sync-status';
import { notificationsForChange } from './notification-for-change';
import { snapshot } from '../../../test/electron/status-snapshot';

const refused: SyncStatusProblem = {
  path: 'Docs/intro.md',
  message: 'the server refused the change (413)',
  spaceId: 's1',
  kind: 'push-failed',
};
const massDelete: SyncStatusProblem = {
  path: 'Docs',
  message: 'the push would delete 12 of 20 pages.',
  spaceId: 's1',
  kind: 'push-blocked',
};

const kinds = (notes: { kind: string }[]) => notes.map((note) => note.kind);

describe('notificationsForChange', () => {
  it('announces nothing that was there at launch but a rejected token', () => {
    expect(
      notificationsForChange(undefined, snapshot({ conflicts: 3, problems: [refused] })),
    ).toEqual([]);
    const [note] = notificationsForChange(
      undefined,
      snapshot({ state: 'error', tokenRejected: true }),
    );
    expect(note).toMatchObject({ kind: 'token-rejected', screen: 'settings' });
  });

  it('announces a new conflict once', () => {
    const before = snapshot();
    const after = snapshot({ state: 'conflicts', conflicts: 1 });
    const notes = notificationsForChange(before, after);
    expect(notes).toEqual([
      expect.objectContaining({
        kind: 'conflict',
        screen: 'conflicts',
        title: 'A page has a conflict',
      }),
    ]);
    expect(notificationsForChange(after, after)).toEqual([]);
    expect(notificationsForChange(after, snapshot({ conflicts: 3 }))[0]?.title).toBe(
      '2 pages have conflicts',
    );
    expect(notificationsForChange(after, before)).toEqual([]);
  });

  it('announces a refused push and the mass-delete guard, opening the problems', () => {
    const notes = notificationsForChange(snapshot(), snapshot({ problems: [refused, massDelete] }));
    expect(kinds(notes)).toEqual(['push-failed', 'mass-delete']);
    expect(notes.every((note) => note.screen === 'problems')).toBe(true);
    expect(notes[0]!.body).toContain('Docs/intro.md');
    expect(
      notificationsForChange(
        snapshot({ problems: [refused, massDelete] }),
        snapshot({ problems: [massDelete, refused] }),
      ),
    ).toEqual([]);
  });

  it('ignores problems the user need not act on from a notification', () => {
    const notPushed: SyncStatusProblem = { ...refused, kind: 'not-pushed' };
    expect(notificationsForChange(snapshot(), snapshot({ problems: [notPushed] }))).toEqual([]);
  });

  it('announces a token rejected while running, once', () => {
    const rejected = snapshot({ state: 'error', tokenRejected: true });
    expect(kinds(notificationsForChange(snapshot(), rejected))).toEqual(['token-rejected']);
    expect(notificationsForChange(rejected, rejected)).toEqual([]);
  });
});
