import { describe, expect, it } from 'vitest';
import { hasConflictMarkers, mergedDraft } from './merged-draft';

describe('mergedDraft', () => {
  it('merges what merges cleanly', () => {
    const draft = mergedDraft('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n');
    expect(draft).toEqual({ text: 'A\nb\nC\n', regions: 0 });
    expect(hasConflictMarkers(draft.text)).toBe(false);
  });

  it('puts markers with mine, the base and theirs around a region both sides changed', () => {
    const draft = mergedDraft('a\nb\n', 'a\nmine\n', 'a\ntheirs\n');
    expect(draft.regions).toBe(1);
    expect(draft.text).toBe(
      [
        'a',
        '<<<<<<< mine (this computer)',
        'mine',
        '||||||| base (last synced)',
        'b',
        '=======',
        'theirs',
        '>>>>>>> theirs (server)',
        '',
      ].join('\n'),
    );
    expect(hasConflictMarkers(draft.text)).toBe(true);
  });

  it('takes a missing side as empty', () => {
    expect(mergedDraft(null, null, null)).toEqual({ text: '', regions: 0 });
    expect(mergedDraft('x\n', 'x\n', null).text).toBe('');
  });
});

describe('hasConflictMarkers', () => {
  it('sees markers only at the start of a line', () => {
    expect(hasConflictMarkers('text =======\n')).toBe(false);
    expect(hasConflictMarkers('text\n=======\n')).toBe(true);
  });
});
