import { describe, expect, it } from 'vitest';
import { CommandFailedError } from '../../shared/contract/command-error';
import { absoluteFolder } from './folder-path';

describe('absoluteFolder', () => {
  it('expands ~ and keeps absolute paths, normalised', () => {
    expect(absoluteFolder('~/Quire demo', '/home/me')).toBe('/home/me/Quire demo');
    expect(absoluteFolder(' ~ ', '/home/me')).toBe('/home/me');
    expect(absoluteFolder('/srv/docs/../wiki/', '/home/me')).toBe('/srv/wiki');
    // Only a leading ~ alone or followed by a separator is the home.
    expect(() => absoluteFolder('~other/x', '/home/me')).toThrow(CommandFailedError);
  });

  it('refuses relative and empty paths, naming the field', () => {
    for (const input of ['Quire', './Quire', '', '  ']) {
      try {
        absoluteFolder(input, '/home/me');
        expect.unreachable(input);
      } catch (error) {
        expect((error as CommandFailedError).error).toMatchObject({
          kind: 'invalid-argument',
          field: 'folder',
          message: expect.stringContaining('~/Quire'),
        });
      }
    }
  });
});
