import { describe, expect, it } from 'vitest';
import type { SyncStatusProblem } from '../../shared/contract/sync-status';
import { notificationForReview, notificationsForChange } from './notification-for-change';
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

describe('notificationForReview', () => {
  it('opens the change request, its body cut to one short line', () => {
    const note = notificationForReview({
      kind: 'comment',
      spaceId: 's/1 x',
      number: 4,
      title: 'Bo commented on #4 Fix the install guide',
      body: `Line one\n\nline two ${'x'.repeat(300)}`,
    });
    expect(note.kind).toBe('review');
    expect(note.title).toBe('Bo commented on #4 Fix the install guide');
    expect(note.screen).toBe('review/s%2F1%20x/4');
    expect(note.body.startsWith('Line one line two x')).toBe(true);
    expect(note.body.length).toBe(200);
    expect(note.body.endsWith('…')).toBe(true);
  });

  it('opens the inbox for a comment on a space', () => {
    const note = notificationForReview({
      kind: 'reply',
      spaceId: 's1',
      number: null,
      title: 'Bo replied to your comment on Handbook',
      body: 'Done.',
    });
    expect(note.screen).toBe('review');
    expect(note.body).toBe('Done.');
  });
});
