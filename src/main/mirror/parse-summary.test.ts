import { describe, expect, it } from 'vitest';
import { parseLink } from '../../shared/gitsync/summary-syntax';
import { parseSummary, type SummaryEntry } from './parse-summary';

function titles(entries: readonly SummaryEntry[]): unknown[] {
  return entries.map((entry) => {
    const name = entry.kind === 'computed' ? `computed:${entry.source.type}` : entry.title;
    return entry.children.length > 0 ? { [name]: titles(entry.children) } : name;
  });
}

describe('parseSummary', () => {
  it('nests bullets by indentation and climbs back out', () => {
    const { entries, problems } = parseSummary(
      [
        '# Table of contents',
        '',
        '* [A](a.md)',
        '  * [B](a/b.md)',
        '    * [C](a/b/c.md)',
        '  * [D](a/d.md)',
        '* [E](e.md)',
        '  ~~~yaml',
        '  not a bullet',
        '  ~~~',
      ].join('\n'),
    );
    expect(titles(entries)).toEqual([{ A: [{ B: ['C'] }, 'D'] }, 'E']);
    expect(problems).toEqual([
      { line: 8, message: expect.stringMatching(/^unexpected line/) },
      { line: 9, message: expect.stringMatching(/^unexpected line/) },
      { line: 10, message: expect.stringMatching(/^unexpected line/) },
    ]);
  });

  it('reads groups, separators and computed blocks', () => {
    const { entries, problems } = parseSummary(
      [
        '* [Home](README.md)',
        '',
        '## API <a href="#api-v2" id="api-v2"></a>',
        '',
        '* [Reference](api/README.md)',
        '  * ~~~yaml',
        '    type: builtin:openapi',
        '    props:',
        '      models: true',
        '    ~~~',
        '  * [After](api/after.md)',
        '',
        '## Empty',
        '',
        '---',
        '',
        '* [Tail](tail.md)',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(titles(entries)).toEqual([
      'Home',
      { API: [{ Reference: ['computed:builtin:openapi', 'After'] }] },
      'Empty',
      'Tail',
    ]);
    expect(entries[1]).toMatchObject({ kind: 'group', slug: 'api-v2', line: 3 });
    expect(entries[2]).toMatchObject({ kind: 'group', slug: 'empty' });
    expect(entries[1]?.children[0]?.children[0]).toMatchObject({
      kind: 'computed',
      source: { type: 'builtin:openapi', props: { models: true } },
      line: 6,
    });
  });

  it('keeps the sub-entries of an entry it cannot read one level up', () => {
    const { entries, problems } = parseSummary('* [A](a.md)\n  * no link\n    * [B](b.md)\n');
    expect(titles(entries)).toEqual([{ A: ['B'] }]);
    expect(problems).toEqual([{ line: 2, message: expect.stringMatching(/^entry without/) }]);
  });
});

describe('parseLink', () => {
  it('reads text, destination and title as written', () => {
    expect(parseLink('[The guide \\[2026\\]](guide.md "How to")')).toEqual({
      title: 'The guide [2026]',
      destination: 'guide.md',
      linkTitle: 'How to',
    });
    expect(parseLink('[a [nested] b](<x y.md>)')).toEqual({
      title: 'a [nested] b',
      destination: 'x y.md',
    });
    expect(parseLink('[w](https://en.wikipedia.org/wiki/A_(b))')).toEqual({
      title: 'w',
      destination: 'https://en.wikipedia.org/wiki/A_(b)',
    });
    expect(parseLink("[q](x.md 'It\\'s')")).toEqual({
      title: 'q',
      destination: 'x.md',
      linkTitle: "It's",
    });
    expect(parseLink('[](x.md)')).toEqual({ title: '', destination: 'x.md' });
  });

  it('refuses what is not one whole link', () => {
    for (const text of [
      'plain',
      '[a](b) trailing',
      '[a] (b)',
      '[a](b',
      '[a(b)',
      '[a](<b)',
      '[a](b "t)',
    ]) {
      expect(parseLink(text)).toBeUndefined();
    }
  });
});
