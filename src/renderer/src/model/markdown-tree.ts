import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** Longest comment body parsed as Markdown; past it the text shows cut, as plain text. */
export const MARKDOWN_MAX_CHARS = 20_000;

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * A comment's Markdown as a syntax tree (never HTML): the renderer turns a whitelist of its nodes
 * into React elements, so raw HTML in it stays text. Null when the body is too long to parse.
 */
export function markdownTree(source: string): Root | null {
  if (source.length > MARKDOWN_MAX_CHARS) return null;
  return parser.parse(source);
}

/** Links a comment may carry: web and mail addresses only (no javascript:, data:, file:). */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}
