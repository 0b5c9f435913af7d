import { beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_CHARS, markdownPlainText, markdownTree } from './markdown-tree';

/** Bodies the parser is slow or recursive on, and near misses the guard lets through. */
const HOSTILE: Record<string, string> = {
  'nested list markers': '- '.repeat(2_400) + 'x',
  'nested quotes': '> '.repeat(2_400) + 'x',
  'a run of quote markers': '>'.repeat(4_900),
  'a run of asterisks': '*'.repeat(2_000) + 'x' + '*'.repeat(2_000),
  'alternating emphasis': '_a'.repeat(2_400),
  'a flood of link openers': '[a]('.repeat(1_200),
  'a thousand table columns': '|a'.repeat(1_200) + '\n' + '|-'.repeat(1_200),
  'a list of 300 items': '- item\n'.repeat(300),
};

const NEAR_MISSES: Record<string, string> = {
  'quotes five deep, many lines': '> > > > > deep\n'.repeat(300),
  'lists five deep, 30 lines': '- - - - - deep\n'.repeat(30),
  'a long nested list': '- a\n  - b\n    - c\n      - d\n'.repeat(37),
  'many short links': '[a](https://a.example) '.repeat(190),
  // Five deep: the guard's pattern fails on it without backtracking.
  'markers with long blanks': ('-' + ' '.repeat(900)).repeat(5) + 'x',
  'a long dashed rule': '-'.repeat(4_000),
  'many emphasised words': '*word* '.repeat(190),
};

describe('comment Markdown parsing is bounded', () => {
  // The parser's first call compiles its code paths; time the calls after it.
  beforeAll(() => void markdownTree('# warm *up* [a](https://a.example)\n\n- one\n> two\n'));

  for (const [name, source] of Object.entries(HOSTILE))
    it(`shows ${name} as plain text, at once`, () => {
      const started = performance.now();
      expect(markdownTree(source)).toBeNull();
      expect(performance.now() - started).toBeLessThan(50);
    });

  for (const [name, source] of Object.entries(NEAR_MISSES))
    it(`formats ${name} within a second`, () => {
      expect(source.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
      const started = performance.now();
      expect(markdownTree(source)).not.toBeNull();
      expect(performance.now() - started).toBeLessThan(1_000);
    });
});

describe('a comment as one line of plain text (notification previews)', () => {
  it('keeps the words, drops the markup, and joins blocks with a space', () => {
    expect(markdownPlainText('Which **version**? Say how to check it.')).toBe(
      'Which version? Say how to check it.',
    );
    expect(markdownPlainText('Done: `npm -v`.\n\n- one\n- [two](https://x.test)')).toBe(
      'Done: npm -v. one two',
    );
    expect(markdownPlainText('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });

  it('gives a body it does not parse back as it is', () => {
    const long = `**${'a'.repeat(MARKDOWN_MAX_CHARS)}**`;
    expect(markdownPlainText(long)).toBe(long);
  });
});
