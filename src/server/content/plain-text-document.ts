import type { JSONDocument } from '@gitbook/api';

/**
 * A document that shows Markdown as the plain text it is written in: one paragraph per block of
 * lines (blocks separated by blank lines), every character kept. It is what a page's document is
 * when its Markdown could not be converted within the server's budget for one job: the page is
 * still readable, and the rest of the response is not held hostage by it. Linear in the input.
 */
export function plainTextDocument(markdown: string): JSONDocument {
  const nodes: JSONDocument['nodes'] = [];
  for (const block of markdown.split(/\r?\n(?:[ \t]*\r?\n)+/)) {
    const text = block.trim();
    if (text === '') continue;
    nodes.push({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
  }
  return { object: 'document', data: {}, nodes };
}
