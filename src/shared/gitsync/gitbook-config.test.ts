import { describe, expect, it } from 'vitest';
import { readGitBookConfig } from './gitbook-config';

describe('readGitBookConfig', () => {
  it('reads root, structure and redirects, cleaning the folder forms', () => {
    expect(
      readGitBookConfig(
        'root: ./docs/\nstructure:\n  readme: ./intro.md\n  summary: toc.md\nredirects:\n  old/page: new/page.md\n',
      ),
    ).toEqual({
      root: 'docs/',
      readme: 'intro.md',
      summary: 'toc.md',
      redirects: { 'old/page': 'new/page.md' },
    });
    expect(readGitBookConfig('')).toEqual({
      root: '',
      readme: 'README.md',
      summary: 'SUMMARY.md',
      redirects: {},
    });
  });

  it('refuses roots and structure paths that leave the repository, naming the key', () => {
    for (const root of ['../x', 'docs/../../x', '/etc', 'C:/docs', 'a\\\\..\\\\b']) {
      expect(readGitBookConfig(`root: "${root}"\n`)).toEqual({
        problem: expect.stringMatching(/^root "/),
      });
    }
    expect(readGitBookConfig('structure:\n  summary: ../SUMMARY.md\n')).toEqual({
      problem: 'structure.summary must be a Markdown file path inside the root',
    });
    expect(readGitBookConfig('structure:\n  readme: /README.md\n')).toEqual({
      problem: 'structure.readme must be a Markdown file path inside the root',
    });
    expect(readGitBookConfig('redirects:\n  a: ../../etc/passwd\n')).toEqual({
      problem: 'redirects.a must name a file inside the root',
    });
  });

  it('refuses huge files, alias bombs, too many redirects and non-mappings', () => {
    const huge = `root: ./\n# ${'x'.repeat(300 * 1024)}\n`;
    expect(readGitBookConfig(huge)).toEqual({ problem: 'is larger than 256 KB' });
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'redirects: { x: y.md }',
    ].join('\n');
    expect(readGitBookConfig(bomb)).toEqual({ problem: expect.any(String) });
    const many = Array.from({ length: 5001 }, (_, i) => `  p${i}: q${i}.md`).join('\n');
    expect(readGitBookConfig(`redirects:\n${many}\n`)).toEqual({
      problem: 'has more than 5000 redirects',
    });
    expect(readGitBookConfig('- a\n- b\n')).toEqual({ problem: expect.any(String) });
    expect(readGitBookConfig('redirects: [a]\n')).toEqual({
      problem: 'redirects must be a mapping of old path to new path',
    });
    expect(readGitBookConfig(`redirects:\n  a: ${'b'.repeat(1100)}\n`)).toEqual({
      problem: 'redirects.a must be a path of 1 to 1024 characters',
    });
  });

  it('keeps a __proto__ redirect as data', () => {
    const config = readGitBookConfig('redirects:\n  __proto__: x.md\n');
    if ('problem' in config) throw new Error(config.problem);
    expect(Object.getPrototypeOf(config.redirects)).toBe(Object.prototype);
    expect(Object.entries(config.redirects)).toEqual([['__proto__', 'x.md']]);
  });
});
