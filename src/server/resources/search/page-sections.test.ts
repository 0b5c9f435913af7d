import { describe, expect, it } from 'vitest';
import { ftsMatchExpression } from './fts-query';
import { splitPageSections } from './page-sections';

describe('splitPageSections', () => {
  it('splits at top-level headings and strips Markdown syntax', () => {
    const markdown = [
      '---',
      'description: d',
      '---',
      '# Getting started',
      '',
      'Read **this** first, see [the guide](guide.md).',
      '',
      '## Install `quire`',
      '',
      '{% hint style="info" %}',
      'Use *npm*.',
      '{% endhint %}',
      '',
      '```sh',
      'npm install quire',
      '```',
      '',
      '## Install `quire`',
      '',
      '<figure><img src="x.png" alt="diagram"></figure>',
      '',
      '| A | B |',
      '|---|---|',
      '| one | two |',
    ].join('\n');
    expect(splitPageSections('Getting started', markdown)).toEqual([
      { anchor: 'intro', title: 'Getting started', body: 'Read this first, see the guide.' },
      { anchor: 'install-quire', title: 'Install quire', body: 'Use npm. npm install quire' },
      { anchor: 'install-quire-2', title: 'Install quire', body: 'A B one two' },
    ]);
  });

  it('does not split inside fenced code and keeps code text', () => {
    const markdown = [
      '> **Note:** quoted',
      '- item one',
      '1. [x] done',
      '',
      '~~~~bash',
      '# not a heading',
      'echo "<head>"',
      '~~~~',
      '',
      '### Closing hashes ###',
      '',
      'Put it in `<head>` please, my_var stays. [ref][r] \\*literal\\*',
      '',
      '[r]: https://example.com',
    ].join('\n');
    expect(splitPageSections('T', markdown)).toEqual([
      {
        anchor: 'intro',
        title: 'T',
        body: 'Note: quoted item one done # not a heading echo "<head>"',
      },
      {
        anchor: 'closing-hashes',
        title: 'Closing hashes',
        body: 'Put it in <head> please, my_var stays. ref *literal*',
      },
    ]);
  });

  it('keeps an empty intro so the page title is always searchable', () => {
    expect(splitPageSections('Empty', '')).toEqual([{ anchor: 'intro', title: 'Empty', body: '' }]);
    expect(splitPageSections('T', '## 日本語\n\ntext')[1]).toEqual({
      anchor: 'section',
      title: '日本語',
      body: 'text',
    });
  });

  it('indexes unreadable frontmatter as text instead of failing', () => {
    const sections = splitPageSections('Bad', '---\ntitle: [unclosed\n---\n\nbody words\n');
    expect(sections.map((section) => section.body).join(' ')).toContain('body words');
  });
});

describe('ftsMatchExpression', () => {
  it.each([
    ['install guide', '"install" "guide"*'],
    ['"', null],
    ['   ', null],
    ['AND OR NOT', '"AND" "OR" "NOT"*'],
    ['NEAR(', '"NEAR"*'],
    ['*', null],
    ['title:secret', '"title" "secret"*'],
    ['café crème', '"café" "crème"*'],
    ['a a a', '"a"*'],
  ])('%s', (query, expected) => {
    expect(ftsMatchExpression(query)).toBe(expected);
  });

  it('keeps at most 32 words', () => {
    const expression = ftsMatchExpression(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));
    expect(expression?.split(' ')).toHaveLength(32);
  });
});
