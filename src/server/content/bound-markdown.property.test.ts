import type { Nodes } from 'mdast';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ordinaryMarkdown,
  PATHOLOGICAL_MARKDOWN,
  pathologicalMarkdown,
} from '../../../test/support/hostile-markdown';
import { readMarkdown } from '../resources/change-requests/read-markdown';
import { splitPageSections } from '../resources/search/page-sections';
import { boundMarkdown, boundMarkdownEscapes, MAX_MARKDOWN_TREE_DEPTH } from './bound-markdown';
import { FrontmatterError, readPageMarkdown } from './markdown-document';
import { markdownToDocument, MAX_DOCUMENT_NESTING } from './markdown-to-document';
import { extractLinks } from './markdown-links';
import { parseMarkdown } from './parse-markdown';
import { pageDocument } from './page-document';

/** Depth of a tree of objects whose children are in the given array-valued fields. */
function depth(root: unknown, fields: readonly string[]): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, level] = entry;
    deepest = Math.max(deepest, level);
    for (const field of fields) {
      const children = (node as Record<string, unknown>)[field];
      if (Array.isArray(children)) for (const child of children) stack.push([child, level + 1]);
    }
  }
  return deepest;
}

/** A JSON document nests two objects per block level (a list and its item), and a few below. */
const MAX_DOCUMENT_DEPTH = 2 * MAX_DOCUMENT_NESTING + 12;

/** Every pure entry point that parses Markdown, each checked for what it must guarantee. */
function checkEveryEntryPoint(markdown: string): void {
  const tree = parseMarkdown(markdown);
  expect(depth(tree, ['children'])).toBeLessThanOrEqual(MAX_MARKDOWN_TREE_DEPTH);
  const end = (tree as Nodes).position?.end.offset;
  if (end !== undefined) expect(end).toBeLessThanOrEqual(markdown.length);

  const lineCount = markdown.split('\n').length;
  for (const link of extractLinks(markdown)) {
    expect(link.line >= 1 && link.line <= lineCount).toBe(true);
  }

  const document = markdownToDocument(markdown);
  expect(depth(document, ['nodes', 'fragments'])).toBeLessThanOrEqual(MAX_DOCUMENT_DEPTH);
  expect(depth(pageDocument(markdown), ['nodes', 'fragments'])).toBeLessThanOrEqual(
    MAX_DOCUMENT_DEPTH,
  );

  for (const read of [readPageMarkdown, readMarkdown]) {
    try {
      read(markdown);
    } catch (error) {
      // Only frontmatter can be refused, with a message fit for a 400.
      expect(error).toBeInstanceOf(FrontmatterError);
    }
  }
  expect(splitPageSections('Title', markdown)[0]?.anchor).toBe('intro');
}

describe('Markdown entry points on hostile input', () => {
  it('never throw, and keep trees within the documented depth, on generated pathological Markdown', () => {
    fc.assert(
      fc.property(pathologicalMarkdown(200), (markdown) => checkEveryEntryPoint(markdown)),
      { numRuns: 25 },
    );
  }, 60_000);

  it('handle every known payload (their first 1,000 characters here; the server suite sends them whole)', () => {
    for (const [name, payload] of Object.entries(PATHOLOGICAL_MARKDOWN)) {
      expect(payload.length, name).toBeGreaterThanOrEqual(30_000);
      const markdown = payload.slice(0, 1_000);
      expect(() => checkEveryEntryPoint(markdown), name).not.toThrow();
    }
  }, 60_000);

  it('only insert backslashes, so every character of the original is kept', () => {
    const markdownish = fc.string({
      unit: fc.constantFrom(...'>-*+_~`[]()!<>{}%|\\:^#=1. \t\n\ra'.split('')),
      maxLength: 3_000,
    });
    fc.assert(
      fc.property(fc.oneof(markdownish, pathologicalMarkdown(100)), (markdown) => {
        const { text, escapes } = boundMarkdownEscapes(markdown);
        expect(text.length).toBe(markdown.length + escapes.length);
        const inserted = new Set(escapes.map((at, j) => at + j));
        expect([...text].filter((_, i) => !inserted.has(i)).join('')).toBe(markdown);
        expect([...inserted].every((i) => text[i] === '\\')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('change nothing in ordinary Markdown', () => {
    fc.assert(
      fc.property(ordinaryMarkdown, (markdown) => {
        expect(boundMarkdown(markdown)).toBe(markdown);
      }),
      { numRuns: 300 },
    );
  });
});
