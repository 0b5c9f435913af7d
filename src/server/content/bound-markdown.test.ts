import type { Nodes, Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { applyChanges, mergeDataRuns } from './linear-micromark';
import {
  boundMarkdown,
  boundMarkdownEscapes,
  INLINE_BUDGET,
  MAX_BRACKET_REACH,
  MAX_CONTAINER_DEPTH,
  MAX_TABLE_COLUMNS,
} from './bound-markdown';
import { readPageMarkdown, TITLE_BLOCK_MAX_LENGTH } from './markdown-document';
import { extractLinks } from './markdown-links';
import { nodeText } from '../../shared/markdown/node-text';
import { parseMarkdown } from './parse-markdown';

/** Containers (blockquote, list item, footnote definition) on the path to the deepest node. */
function containerDepth(root: Root): number {
  let deepest = 0;
  const stack: Array<[Nodes, number]> = [[root, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry;
    const here =
      node.type === 'blockquote' || node.type === 'listItem' || node.type === 'footnoteDefinition'
        ? depth + 1
        : depth;
    deepest = Math.max(deepest, here);
    if ('children' in node) for (const child of node.children) stack.push([child, here]);
  }
  return deepest;
}

function nodesOfType(root: Nodes, type: string): Nodes[] {
  const found: Nodes[] = [];
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === type) found.push(node);
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return found;
}

describe('boundMarkdown', () => {
  it('keeps blockquote markers past the depth limit as text, escaping just one', () => {
    const markdown = `${'>'.repeat(MAX_CONTAINER_DEPTH + 8)} x`;
    expect(boundMarkdownEscapes(markdown).escapes).toEqual([MAX_CONTAINER_DEPTH]);
    const root = parseMarkdown(markdown);
    expect(containerDepth(root)).toBe(MAX_CONTAINER_DEPTH);
    expect(nodeText(root)).toBe(`${'>'.repeat(8)} x`);
  });

  it('caps list items, ordered items, footnote definitions and any mix of them', () => {
    for (const unit of ['- ', '* ', '1. ', '2) ', '> - ', '- > 1. ']) {
      const markdown = `${unit.repeat(MAX_CONTAINER_DEPTH + 10)}end`;
      const root = parseMarkdown(markdown);
      expect(containerDepth(root), unit).toBe(MAX_CONTAINER_DEPTH);
      // Nothing is dropped: the escaped markers and the text after them are all still there.
      expect(nodeText(root).replace(/\s+/g, ''), unit).toContain(
        unit.trim().replace(/\s+/g, '').repeat(2),
      );
      expect(nodeText(root), unit).toMatch(/end$/);
    }
    // Past the limit, `[^a]` is a footnote call of the definitions above it.
    const footnotes = parseMarkdown(`${'[^a]: '.repeat(MAX_CONTAINER_DEPTH + 10)}end`);
    expect(containerDepth(footnotes)).toBe(MAX_CONTAINER_DEPTH);
    expect(nodesOfType(footnotes, 'footnoteReference')).toHaveLength(9);
  });

  it('caps lists nested by indentation alone and blockquotes restated line by line', () => {
    const stairs = Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const stairsRoot = parseMarkdown(stairs);
    expect(containerDepth(stairsRoot)).toBe(MAX_CONTAINER_DEPTH);
    expect(nodeText(stairsRoot)).toContain('- item 59');
    const quotes = Array.from({ length: 60 }, (_, i) => `${'> '.repeat(i + 1)}q${i}`).join('\n');
    expect(containerDepth(parseMarkdown(quotes))).toBe(MAX_CONTAINER_DEPTH);
  });

  it('leaves markers in fenced and indented code, and nesting within the limit, unchanged', () => {
    const deepLine = '>'.repeat(MAX_CONTAINER_DEPTH * 2);
    const documents = [
      `\`\`\`\n${deepLine}\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n\`\`\`\n`,
      `> ~~~\n> ${deepLine}\n> ~~~\n`,
      `Text\n\n    ${deepLine}\n`,
      `${'> '.repeat(MAX_CONTAINER_DEPTH)}x\n`,
      `${'- '.repeat(MAX_CONTAINER_DEPTH)}x\n`,
      `<div>\n${deepLine}\n</div>\n`,
    ];
    for (const markdown of documents) expect(boundMarkdown(markdown)).toBe(markdown);
  });

  it('reports positions of the original text after escaping', () => {
    const deep = `${'>'.repeat(MAX_CONTAINER_DEPTH + 8)} see [a](a.md)`;
    const markdown = `# T\n\n${deep}\n\n[b](b.md) and ${'*x* '.repeat(INLINE_BUDGET)} [c](c.md)\n`;
    const links = extractLinks(markdown);
    const at = (href: string) => links.find((link) => link.href === href);
    expect(at('a.md')).toMatchObject({ line: 3, column: deep.indexOf('[') + 1 });
    expect(at('b.md')).toMatchObject({ line: 5, column: 1 });
    const line5 = markdown.split('\n')[4]!;
    expect(at('c.md')).toMatchObject({ line: 5, column: line5.indexOf('[c]') + 1 });
    const root = parseMarkdown(markdown);
    expect(root.position?.end.offset).toBe(markdown.length);
  });

  it('keeps a GFM table up to the column limit and a wider one as text', () => {
    const table = (columns: number) =>
      `|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n|${'b|'.repeat(columns)}\n`;
    expect(nodesOfType(parseMarkdown(table(MAX_TABLE_COLUMNS)), 'table')).toHaveLength(1);
    const wide = parseMarkdown(table(MAX_TABLE_COLUMNS + 1));
    expect(nodesOfType(wide, 'table')).toHaveLength(0);
    expect(nodeText(wide)).toContain(`|${'-|'.repeat(MAX_TABLE_COLUMNS + 1)}`);
  });

  it('reads emphasis up to the span budget and keeps further delimiters as text', () => {
    const pairs = INLINE_BUDGET; // two delimiter runs each: twice the budget
    const root = parseMarkdown(`${'*a* '.repeat(pairs)}`);
    expect(nodesOfType(root, 'emphasis')).toHaveLength(INLINE_BUDGET / 2);
    expect(nodeText(root)).toBe(
      `${'a '.repeat(INLINE_BUDGET / 2)}${'*a* '.repeat(pairs / 2)}`.trim(),
    );
    // Another paragraph has a budget of its own.
    expect(nodesOfType(parseMarkdown('*a*\n\n*b*'), 'emphasis')).toHaveLength(2);
  });

  it('escapes code-span openers that never close only past their budget', () => {
    // Runs of 1, 2, 3, … backticks: none has a closing run of its length.
    const ladder = (count: number) =>
      Array.from({ length: count }, (_, i) => `${'`'.repeat(i + 1)}a`).join('');
    expect(boundMarkdown(ladder(10))).toBe(ladder(10));
    expect(nodesOfType(parseMarkdown('`a` and ``b``'), 'inlineCode')).toHaveLength(2);
    const many = ladder(60);
    const root = parseMarkdown(many);
    expect(nodesOfType(root, 'inlineCode')).toHaveLength(0);
    expect(nodeText(root)).toBe(many.trim());
  });

  it('escapes a bracket farther than its reach from its closing bracket', () => {
    const near = `[${'a'.repeat(100)}](x.md)`;
    expect(boundMarkdown(near)).toBe(near);
    const far = `[${'a '.repeat(MAX_BRACKET_REACH)}](x.md)`;
    const root = parseMarkdown(far);
    expect(nodesOfType(root, 'link')).toHaveLength(0);
    expect(nodeText(root)).toBe(far);
  });

  it('is the identity on Markdown with nothing pathological', () => {
    const markdown = [
      '---',
      'description: d',
      '---',
      '# Title',
      '',
      'Some *text*, **bold**, `code`, [a link](../a.md) and ![img](.gitbook/assets/x.png).',
      '',
      '> quote with - dash and > gt',
      '> - item',
      '',
      '1. one',
      '   - two',
      '     > three',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '{% hint style="info" %}',
      'Hint',
      '{% endhint %}',
      '',
      '<details>',
      '<summary>More</summary>',
      '',
      'Body',
      '',
      '</details>',
    ].join('\n');
    expect(boundMarkdown(markdown)).toBe(markdown);
  });
});

describe('readPageMarkdown on hostile pages', () => {
  it('finds the title without parsing a huge first block', () => {
    const read = readPageMarkdown(`# Title\n${'>'.repeat(60_000)}`);
    expect(read.title).toBe('Title');
    expect(read.body).toBe('>'.repeat(60_000));
    expect(readPageMarkdown('>'.repeat(60_000)).title).toBeUndefined();
    const longLines = `# Title\n${'word '.repeat(TITLE_BLOCK_MAX_LENGTH)}`;
    expect(readPageMarkdown(longLines).title).toBe('Title');
  });

  it('reads a setext title within the limit and leaves a longer one in the body', () => {
    expect(readPageMarkdown('Title\n===\n\ntext').title).toBe('Title');
    const long = `${'word '.repeat(TITLE_BLOCK_MAX_LENGTH / 4)}\n===\n\ntext`;
    const read = readPageMarkdown(long);
    expect(read.title).toBeUndefined();
    expect(read.body).toBe(long);
  });
});

describe('linear micromark passes', () => {
  type Event = Parameters<typeof applyChanges>[0][number];
  const event = (name: string, type = 'x'): Event => [name, { type, end: name }, null];

  it('applies edits like micromark: inserts, removals, and removals that overlap the next edit', () => {
    const events = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => event(name));
    applyChanges(events, [
      [1, 2, [event('X')]],
      [2, 0, [event('Y')]],
      [5, 1, []],
    ]);
    // The first removal stops at the next edit's index: it removes only `b`.
    expect(events.map((e) => e[0])).toEqual(['a', 'X', 'Y', 'c', 'd', 'e']);
  });

  it('are installed on the copy of micromark that parses', async () => {
    const { EditMap } = await import('micromark-util-edit-map');
    const marker = Symbol.for('quire.linearMicromark');
    expect((EditMap.prototype as unknown as Record<symbol, unknown>)[marker]).toBe(true);
  });

  it('merges each run of data tokens into its first', () => {
    const events = [
      event('d1', 'data'),
      event('d1', 'data'),
      event('d2', 'data'),
      event('d2', 'data'),
      event('e', 'emphasis'),
      event('d3', 'data'),
      event('d3', 'data'),
    ];
    const merged = mergeDataRuns(events);
    expect(merged.map((e) => e[0])).toEqual(['d1', 'd1', 'e', 'd3', 'd3']);
    expect(merged[0]![1].end).toBe('d2');
  });
});
