/**
 * The lexical pieces of Git Sync's SUMMARY.md grammar, shared by the desktop's reader
 * (src/main/mirror/parse-summary.ts) and the server's import (src/server/gitsync-import).
 */
import { unescapeMarkdown } from './page-title';
import { titleSlug } from './title-slug';

/** Columns of leading whitespace, a tab counting to the next multiple of four. */
export function columns(whitespace: string): number {
  let width = 0;
  for (const char of whitespace) width = char === '\t' ? width + 4 - (width % 4) : width + 1;
  return width;
}

/** A `## Group` heading's title, and its slug (an `<a id>` pins it). */
export function groupTitle(raw: string): { title: string; slug: string } {
  const anchor = /(?<!\\)<a\s[^<>]*\bid="([^"]*)"[^<>]*>\s*<\/a>\s*$/i.exec(raw);
  const text = anchor ? raw.slice(0, anchor.index) : raw;
  const title = unescapeMarkdown(text).trim();
  const id = anchor?.[1] === undefined ? '' : decodeHtml(anchor[1]);
  return { title, slug: id || titleSlug(title) };
}

/**
 * `[text](destination "title")` filling the whole bullet. The text may hold escaped or balanced
 * brackets; the destination is `<…>` or bare with balanced parentheses; the title is quoted with
 * `"`, `'` or parentheses.
 */
export function parseLink(
  content: string,
): { title: string; destination: string; linkTitle?: string } | undefined {
  if (!content.startsWith('[')) return undefined;
  let depth = 0;
  let i = 0;
  for (; i < content.length; i += 1) {
    const char = content[i];
    if (char === '\\') i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']' && --depth === 0) break;
  }
  if (depth !== 0 || content[i + 1] !== '(') return undefined;
  const title = unescapeMarkdown(content.slice(1, i));
  let rest = content.slice(i + 2);

  let destination: string;
  if (rest.startsWith('<')) {
    const close = rest.indexOf('>');
    if (close === -1) return undefined;
    destination = rest.slice(1, close);
    rest = rest.slice(close + 1);
  } else {
    let parens = 0;
    let j = 0;
    for (; j < rest.length; j += 1) {
      const char = rest[j];
      if (char === '\\') j += 1;
      else if (char === '(') parens += 1;
      else if (char === ')') {
        if (parens === 0) break;
        parens -= 1;
      } else if (char === ' ' || char === '\t') break;
    }
    destination = rest.slice(0, j);
    rest = rest.slice(j);
  }
  const tail =
    /^[ \t]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|\(((?:[^()\\]|\\.)*)\))?[ \t]*\)$/.exec(
      rest,
    );
  if (!tail) return undefined;
  const linkTitle = tail[1] ?? tail[2] ?? tail[3];
  return {
    title,
    destination: unescapeMarkdown(destination),
    ...(linkTitle ? { linkTitle: unescapeMarkdown(linkTitle) } : {}),
  };
}

function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
