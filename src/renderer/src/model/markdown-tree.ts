import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** Longest comment body formatted as Markdown; a longer one shows whole, as plain text. */
export const MARKDOWN_MAX_CHARS = 5_000;

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * Shapes the Markdown parser takes super-linear time or deep recursion on (measured: 8,000
 * characters of nested list markers take over ten seconds): containers nested deeper than 5 on
 * a line, long runs of one delimiter, floods of brackets, emphasis delimiters, table pipes or list
 * items. A comment with one of them shows as plain text instead: same words, no formatting.
 */
const PATHOLOGICAL: readonly RegExp[] = [
  // One run of blanks between markers, so a line that fails cannot backtrack.
  /^[ \t]*(?:(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]))[ \t]*){6,}/m,
  /([*_~[\]>|`])\1{32,}/,
];
const FLOOD_LIMITS: readonly [RegExp, number][] = [
  [/\[/g, 200],
  [/[*_~]/g, 400],
  [/\|/g, 300],
  // List items cost the parser far more than paragraphs.
  [/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/gm, 150],
];

function pathological(source: string): boolean {
  if (PATHOLOGICAL.some((pattern) => pattern.test(source))) return true;
  return FLOOD_LIMITS.some(([pattern, limit]) => (source.match(pattern)?.length ?? 0) > limit);
}

/**
 * A comment's Markdown as a syntax tree (never HTML): the renderer turns a whitelist of its nodes
 * into React elements, so raw HTML in it stays text. Null when it is too long or too convoluted
 * to parse quickly, or the parser fails: the caller shows the text as it is.
 */
export function markdownTree(source: string): Root | null {
  if (source.length > MARKDOWN_MAX_CHARS || pathological(source)) return null;
  try {
    return parser.parse(source);
  } catch {
    return null;
  }
}

/** Nodes inside a line: their words run on without a break. */
const INLINE = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference']);

/**
 * A comment's words without their Markdown (`**version**?` → `version?`), for a one-line preview:
 * blocks joined by a space. The source as it is when it is not parsed (see markdownTree).
 */
export function markdownPlainText(source: string): string {
  const tree = markdownTree(source);
  if (tree === null) return source;
  const words: string[] = [];
  const walk = (node: { type: string; value?: unknown; children?: unknown }) => {
    if (typeof node.value === 'string') words.push(node.value);
    if (!Array.isArray(node.children)) return;
    for (const child of node.children as { type: string }[]) walk(child);
    if (!INLINE.has(node.type)) words.push(' ');
  };
  walk(tree);
  return words.join('').replace(/\s+/g, ' ').trim();
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
