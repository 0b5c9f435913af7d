import { describe, expect, it } from 'vitest';
import { parseTitleBlock } from '../../main/mirror/parse-title-block';
import { readPageMarkdown } from '../../server/content/markdown-document';
import { parseMarkdown } from '../../server/content/parse-markdown';
import { leadingHeading, splitLeadingHeading, unescapeMarkdown } from './page-title';

/** Pages whose title the engine must predict exactly as the server stores it. */
const HEADINGS: [string, string | undefined][] = [
  ['# Getting \\*started\\* #\n\nBody', 'Getting *started*'],
  ['   # Indented\n', 'Indented'],
  ['# Bell &#x7; title', 'Bell \u0007 title'],
  ['# **Bold** and [a link](other.md) and `code`', 'Bold and a link and code'],
  ['# ~~Struck~~ title', 'Struck title'],
  ['Setext title\n============\n\nBody', 'Setext title'],
  ['# Ampersand &amp; &#x41;', 'Ampersand & A'],
  ['Intro\n# Later', undefined],
  ['## Second level', undefined],
  ['#\n', undefined],
  ['    # code block', undefined],
];

describe('the title a page heading gives', () => {
  it.each(HEADINGS)('is the same for the engine and the server: %j', (markdown, title) => {
    expect(leadingHeading(markdown, parseTitleBlock)).toBe(title);
    expect(leadingHeading(markdown, parseMarkdown)).toBe(title);
    expect(readPageMarkdown(markdown).title).toBe(title);
  });

  it('splits the body after the heading', () => {
    expect(splitLeadingHeading('# T\n\n\nBody\n', parseTitleBlock)).toEqual({
      heading: 'T',
      body: 'Body\n',
    });
    expect(splitLeadingHeading('Body only\n', parseTitleBlock)).toEqual({ body: 'Body only\n' });
  });

  it('unescapes SUMMARY.md link text, keeping printable references as written', () => {
    expect(unescapeMarkdown('&#x41; \\[x\\] &#x7;')).toBe('&#x41; [x] \u0007');
  });
});
