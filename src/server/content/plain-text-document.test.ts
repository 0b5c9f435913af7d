import { describe, expect, it } from 'vitest';
import { markdownToDocument } from './markdown-to-document';
import { plainTextDocument } from './plain-text-document';

describe('plainTextDocument', () => {
  it('keeps every block as a paragraph of its literal text', () => {
    const markdown = '# Title *x*\n\n> quoted\nline two\n\n  \n\n`code`\n';
    expect(plainTextDocument(markdown).nodes.map((node) => JSON.stringify(node))).toEqual(
      ['# Title *x*', '> quoted\nline two', '`code`'].map((text) =>
        JSON.stringify({
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
        }),
      ),
    );
  });

  it('has the published shape markdownToDocument gives a plain paragraph', () => {
    expect(plainTextDocument('plain words')).toEqual(markdownToDocument('plain words'));
    expect(plainTextDocument('')).toEqual(markdownToDocument(''));
  });
});
