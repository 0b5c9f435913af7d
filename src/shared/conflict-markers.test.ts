import { describe, expect, it } from 'vitest';
import { conflictMarkers, hasConflictMarkers } from './conflict-markers';

const labels = { mine: 'mine (a.md)', theirs: 'theirs (server)' };

describe('conflictMarkers', () => {
  it('merges what merges and marks each region both sides changed, with the base', () => {
    const base = 'title\none\ntwo\nthree\n';
    const mine = 'title\none\nTWO mine\nthree\n';
    const theirs = 'Title\none\nTWO theirs\nthree\n';
    expect(conflictMarkers(base, mine, theirs, labels)).toEqual({
      regions: 1,
      text: [
        'Title',
        'one',
        '<<<<<<< mine (a.md)',
        'TWO mine',
        '||||||| base (last synced)',
        'two',
        '=======',
        'TWO theirs',
        '>>>>>>> theirs (server)',
        'three',
        '',
      ].join('\n'),
    });
  });

  it('takes a deleted side as empty', () => {
    const result = conflictMarkers('a\n', 'a\nb\n', null, labels);
    expect(result.regions).toBe(1);
    expect(result.text).toContain(
      '<<<<<<< mine (a.md)\na\nb\n||||||| base (last synced)\na\n=======\n>>>>>>>',
    );
  });

  it('has no markers when the sides agree', () => {
    expect(conflictMarkers('a\n', 'b\n', 'b\n', labels)).toEqual({ regions: 0, text: 'b\n' });
  });
});

describe('hasConflictMarkers', () => {
  it('sees markers only at the start of a line', () => {
    expect(hasConflictMarkers('text =======\n')).toBe(false);
    expect(hasConflictMarkers('text\n=======\n')).toBe(true);
    expect(hasConflictMarkers(conflictMarkers('a\n', 'b\n', 'c\n', labels).text)).toBe(true);
  });
});
