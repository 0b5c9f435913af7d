import { describe, expect, it } from 'vitest';
import { readPageMarkdown } from '../../content/markdown-document';
import { readMarkdown } from './read-markdown';

describe('readMarkdown', () => {
  it('keeps the Markdown whole as the body', () => {
    const markdown = '---\ntitle: Front\nemoji: "🎉"\nhidden: true\n---\n\n# Heading\n\nText.\n';
    expect(readMarkdown(markdown)).toEqual({
      title: 'Front',
      fields: { emoji: '🎉', hidden: true },
      body: markdown,
    });
  });

  it('reads the same title as the Markdown parser, with or without the fast path', () => {
    const samples = [
      '# Plain title\n\nText.\n',
      '# Title with trailing spaces   \nText',
      '#   Spaced    out   title\n',
      '# Été à Paris: 2 jours (v1.2) - notes!\n',
      '# *Emphasis* title\n',
      '# Title with `code`\n',
      '# Link [here](x.md)\n',
      '# Closing hashes ##\n',
      '# A & B\n',
      '## Not a title\n',
      'No heading\n',
      '#NoSpace\n',
      '# \n\nEmpty heading\n',
      '  # Indented\n',
      '# Title\r\n\r\nWindows\r\n',
      '# Title   \r\nspaces before CRLF\n',
      `# a${' '.repeat(1000)}*\n`,
      `# a${' '.repeat(1000)}b\n`,
      '# Only line, no newline  ',
      '# Lone\rreturn\n',
    ];
    for (const markdown of samples) {
      expect(readMarkdown(markdown).title, markdown).toBe(readPageMarkdown(markdown).title);
    }
  });
});
