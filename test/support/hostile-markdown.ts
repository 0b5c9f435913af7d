/**
 * Hostile Markdown for tests of every entry point that parses Markdown (issue 10): fixed payloads
 * (the ones that stalled the server, and one of each construct micromark was superlinear or
 * recursive on) and fast-check generators of pathological and of ordinary Markdown.
 */
import fc from 'fast-check';

const repeat = (unit: string, length: number): string =>
  unit.repeat(Math.max(1, Math.ceil(length / unit.length)));

/** `lines(n, i => line)`: n lines joined by newlines. */
const lines = (count: number, line: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => line(i)).join('\n');

/** Increasing backtick runs, none closed: each opener scans the rest of the paragraph. */
function backtickLadder(length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let run = 1; size < length; run++) {
    parts.push(`${'`'.repeat(run)}a`);
    size += run + 1;
  }
  return parts.join('');
}

/** A list nested one level deeper on every line, by indentation only. */
function indentedListStairs(length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let depth = 0; size < length; depth++) {
    const line = `${'  '.repeat(depth)}- x`;
    parts.push(line);
    size += line.length + 1;
  }
  return parts.join('\n');
}

function wideTable(columns: number): string {
  return [`|${'a|'.repeat(columns)}`, `|${'-|'.repeat(columns)}`, `|${'b|'.repeat(columns)}`].join(
    '\n',
  );
}

/**
 * Named payloads, each at least 30 KB. The first two are the issue's: a comment body that made a
 * read take 39 s and answer 500, and the insert_page that stalled the server for 255 s.
 */
export const PATHOLOGICAL_MARKDOWN: Readonly<Record<string, string>> = {
  'blockquote-30000-x': `${'>'.repeat(30_000)} x`,
  'blockquote-60000': '>'.repeat(60_000),
  'bullet-list-line': `${repeat('- ', 40_000)}x`,
  'ordered-list-line': `${repeat('1. ', 40_000)}x`,
  'mixed-containers-line': `${repeat('> - 1. * ', 40_000)}x`,
  'indented-list-stairs': indentedListStairs(60_000),
  'blockquote-stairs': lines(300, (i) => `${'>'.repeat(i + 1)} x`),
  'sibling-blockquotes': repeat('> quote\n\n', 40_000),
  'loose-list': repeat('- item one\n- item two\n  - nested\n\n', 40_000),
  'footnote-definitions': `${repeat('[^a]: ', 40_000)}x`,
  'emphasis-runs': repeat('*a**a***', 40_000),
  'underscore-runs': repeat('_a__a___', 40_000),
  'closing-stars': repeat('a* ', 40_000),
  'mixed-delimiters': `${repeat('*_~', 40_000)}a`,
  'link-brackets': `${'['.repeat(40_000)}a`,
  'image-brackets': `${repeat('![', 40_000)}a`,
  'bracket-pairs': `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  'unclosed-links': repeat('[a](b ', 40_000),
  'open-bracket-then-words': `[${repeat('a ', 40_000)}`,
  'backtick-ladder': backtickLadder(40_000),
  'backslash-escapes': repeat('a\\* ', 40_000),
  'html-comment-openers': `x ${repeat('<!--', 40_000)}`,
  'deep-html': repeat('<div>', 40_000),
  'unclosed-figures': `<div>\n${repeat('<figure><img src="a.png"', 40_000)}\n`,
  'unclosed-details': repeat('<details>\n\n', 40_000),
  'unclosed-liquid-tags': repeat('{% hint style="info" %}\n', 40_000),
  'table-10000-columns': wideTable(10_000),
  'table-row-20000-cells': `|a|b|\n|-|-|\n|${'c|'.repeat(20_000)}`,
  'wide-header-one-cell-rows': `${wideTable(120)}\n${repeat('x\n', 40_000)}`,
  'paragraph-of-short-lines': repeat('which a what\n', 40_000),
  'space-run': `a${' '.repeat(40_000)}b`,
  'line-1mb': repeat('word ', 1_000_000),
};

// --- generators ----------------------------------------------------------------------------------

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'x', 'API', 'page', 'sync');
const words = fc.array(word, { minLength: 1, maxLength: 8 }).map((list) => list.join(' '));

/** One inline piece of ordinary prose. */
const inline = fc.oneof(
  words,
  words.map((text) => `*${text}*`),
  words.map((text) => `**${text}**`),
  words.map((text) => `~~${text}~~`),
  words.map((text) => `\`${text}\``),
  fc.tuple(words, word).map(([text, target]) => `[${text}](./${target}.md)`),
  fc.tuple(words, word).map(([text, target]) => `![${text}](.gitbook/assets/${target}.png)`),
  word.map((target) => `<https://${target}.example>`),
  word.map((target) => `https://www.${target}.example/path`),
  fc.constant('snake_case_name'),
);
const sentence = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
const paragraph = fc
  .array(sentence, { minLength: 1, maxLength: 3 })
  .map((sentences) => sentences.join('\n'));

const listItems = (marker: (i: number) => string) =>
  fc
    .array(fc.tuple(sentence, fc.option(sentence, { nil: undefined })), {
      minLength: 1,
      maxLength: 4,
    })
    .map((items) =>
      items
        .map(([text, nested], i) =>
          nested === undefined ? `${marker(i)}${text}` : `${marker(i)}${text}\n   - ${nested}`,
        )
        .join('\n'),
    );

const table = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), word)
  .map(([columns, rows, cell]) =>
    [
      `| ${Array.from({ length: columns }, (_, i) => `h${i}`).join(' | ')} |`,
      `| ${Array.from({ length: columns }, () => '---').join(' | ')} |`,
      ...Array.from(
        { length: rows },
        () => `| ${Array.from({ length: columns }, () => `**${cell}**`).join(' | ')} |`,
      ),
    ].join('\n'),
  );

/** One block of an ordinary page, the kinds Git Sync writes. */
const block: fc.Arbitrary<string> = fc.oneof(
  paragraph,
  fc
    .tuple(fc.integer({ min: 1, max: 4 }), words)
    .map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  listItems(() => '- '),
  listItems((i) => `${i + 1}. `),
  listItems(() => '- [ ] '),
  paragraph.map((text) => text.replace(/^/gm, '> ')),
  paragraph.map((text) => `> > ${text.replace(/\n/g, '\n> > ')}`),
  table,
  fc
    .tuple(fc.constantFrom('js', 'bash', ''), fc.array(words, { maxLength: 3 }))
    .map(
      ([lang, code]) =>
        `\`\`\`${lang}\n${['>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>', ...code].join('\n')}\n\`\`\``,
    ),
  word.map(
    (name) =>
      `<figure><img src=".gitbook/assets/${name}.png" alt=""><figcaption></figcaption></figure>`,
  ),
  paragraph.map((text) => `{% hint style="info" %}\n${text}\n{% endhint %}`),
  paragraph.map((text) => `<details>\n\n<summary>More</summary>\n\n${text}\n\n</details>`),
  fc.constant('---'),
);

/** An ordinary page: blocks separated by blank lines. boundMarkdown leaves these unchanged. */
export const ordinaryMarkdown: fc.Arbitrary<string> = fc
  .array(block, { minLength: 1, maxLength: 12 })
  .map((blocks) => `${blocks.join('\n\n')}\n`);

/** One pathological construct, at most about `size` characters. */
function hostilePiece(size: number): fc.Arbitrary<string> {
  const count = fc.integer({ min: 1, max: size });
  return fc.oneof(
    count.map((n) => `${'>'.repeat(n)} x`),
    count.map((n) => `${'- '.repeat(n)}x`),
    count.map((n) => `${'1. '.repeat(Math.ceil(n / 2))}x`),
    fc
      .tuple(
        count,
        fc.array(fc.constantFrom('> ', '- ', '* ', '+ ', '1. ', '2) ', '[^a]: ', '  ', '    ')),
      )
      .map(([n, markers]) => repeat(markers.join('') || '> ', n)),
    count.map((n) => indentedListStairs(n * 4)),
    count.map((n) => lines(Math.ceil(Math.sqrt(n)), (i) => `${'>'.repeat(i + 1)} x`)),
    count.map((n) => repeat('> quote\n\n', n * 4)),
    fc
      .tuple(count, fc.constantFrom('*a**a***', '_a__a___', 'a* ', '*_~', '~a~~', 'a\\* '))
      .map(([n, unit]) => repeat(unit, n * 2)),
    fc
      .tuple(count, fc.constantFrom('[', '![', '[a](', '[a](b ', '[^', ']', '<!--', '<a', '<div>'))
      .map(([n, unit]) => repeat(unit, n * 2)),
    count.map((n) => `[${repeat('a ', n * 8)}`),
    count.map((n) => backtickLadder(n * 2)),
    count.map((n) => wideTable(Math.min(n, 400))),
    count.map((n) => `|a|b|\n|-|-|\n|${'c|'.repeat(n)}`),
    count.map((n) => repeat('{% hint %}\n', n * 2)),
    count.map((n) => repeat('<details>\n\n', n * 2)),
    count.map((n) => repeat('word ', n * 8)),
    count.map((n) => repeat('which a what\n', n * 4)),
  );
}

/**
 * Pathological Markdown: hostile constructs of up to about `size` markers each, interleaved with
 * ordinary blocks and glued by random separators (so they also land inside containers and spans).
 */
export function pathologicalMarkdown(size = 2_000): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 3, arbitrary: hostilePiece(size) },
    { weight: 1, arbitrary: block },
  );
  const separator = fc.constantFrom('\n\n', '\n', ' ', '', '\n> ', '\n- ', '\n    ');
  return fc
    .array(fc.tuple(piece, separator), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.map(([text, glue]) => text + glue).join(''));
}
