import { posix as node } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { posix } from './posix-path';

const segment = fc.constantFrom('a', 'b', 'c d', 'é', '.', '..', '', 'README.md');
const path = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.boolean())
  .map(([rooted, parts, slash]) => `${rooted ? '/' : ''}${parts.join('/')}${slash ? '/' : ''}`);

describe('posix-path (pure) agrees with node:path posix', () => {
  it('normalize, join, dirname and basename', () => {
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(posix.normalize(a)).toBe(node.normalize(a));
        expect(posix.join(a, b)).toBe(node.join(a, b));
        expect(posix.dirname(a)).toBe(node.dirname(a));
        expect(posix.basename(a)).toBe(node.basename(a));
      }),
      { numRuns: 2000 },
    );
  });

  it('relative, from a common root', () => {
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(posix.relative(a, b)).toBe(node.relative(`/${a}`, `/${b}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('examples the layout meets', () => {
    expect(posix.relative('guides', 'guides/setup/README.md')).toBe('setup/README.md');
    expect(posix.relative('a/b', '.gitbook/assets/x.png')).toBe('../../.gitbook/assets/x.png');
    expect(posix.relative('.', 'README.md')).toBe('README.md');
    expect(posix.dirname('README.md')).toBe('.');
  });
});
