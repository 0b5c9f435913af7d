import { readPageMarkdown } from '../../content/markdown-document';
import { decodeEntities } from '../../content/html-entities';
import { slugify } from '../../content/revision-tree';

/** One searchable part of a page: the text before its first heading, or a heading and its text. */
export interface PageSection {
  /** `intro`, or the heading's anchor (slug of its text, made unique within the page). */
  anchor: string;
  /** The page title for the intro, the heading text otherwise. */
  title: string;
  /** Plain text: Markdown syntax, HTML tags and Liquid tags removed, whitespace collapsed. */
  body: string;
}

export const INTRO_ANCHOR = 'intro';

/**
 * Splits a page's Markdown at its ATX headings (`#` … `######`, outside fenced code). The
 * frontmatter and the leading `# Title` are page fields, not content (the title is the intro
 * section's title). There is always an intro section, even an empty one, so every page can be
 * found by its title.
 *
 * This is a line scanner, not a Markdown parser: a full parse costs tens of milliseconds per
 * page, and reindexing a space happens inside a search request. Search text only needs the words
 * in the right section, which this keeps exact (setext headings, rare in Git Sync Markdown, stay
 * in the section's text instead of starting a new one).
 */
export function splitPageSections(pageTitle: string, markdown: string): PageSection[] {
  const parts: Array<{ anchor: string; title: string; lines: string[] }> = [
    { anchor: INTRO_ANCHOR, title: pageTitle, lines: [] },
  ];
  const used = new Set([INTRO_ANCHOR]);
  let current = parts[0]!;
  let fence: { char: string; length: number } | null = null;

  for (const line of contentOf(markdown).split(/\r?\n/)) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
      if (close && close[0] === fence.char && close.length >= fence.length) fence = null;
      else current.lines.push(escapeCode(line));
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open) {
      fence = { char: open[0]!, length: open.length };
      continue;
    }
    const heading = /^ {0,3}#{1,6}(?:[ \t]|$)/.exec(line);
    if (heading) {
      const title = plainText(withoutClosingHashes(line.slice(heading[0].length)));
      current = { anchor: uniqueAnchor(title, used), title, lines: [] };
      parts.push(current);
      continue;
    }
    current.lines.push(blockText(line));
  }
  return parts.map(({ anchor, title, lines }) => ({
    anchor,
    title,
    body: plainText(lines.join('\n')),
  }));
}

/** The page's content without frontmatter and leading heading; the whole text if unreadable. */
function contentOf(markdown: string): string {
  try {
    return readPageMarkdown(markdown).body;
  } catch {
    // A page whose frontmatter cannot be read is still searchable: index its text as written.
    return markdown;
  }
}

function uniqueAnchor(title: string, used: Set<string>): string {
  const base = /[a-z0-9]/i.test(title.normalize('NFKD')) ? slugify(title) : 'section';
  let anchor = base;
  for (let n = 2; used.has(anchor); n++) anchor = `${base}-${n}`;
  used.add(anchor);
  return anchor;
}

/** `Title ##` → `Title` (the optional closing sequence of an ATX heading), without regexes. */
function withoutClosingHashes(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  if (end === 0) return '';
  return end < trimmed.length && /[ \t]/.test(trimmed[end - 1]!) ? trimmed.slice(0, end) : trimmed;
}

/** Removes the block syntax of one line: quotes, list markers, table rules, link definitions. */
function blockText(line: string): string {
  if (/^ {0,3}\[[^\]]+\]:\s*\S/.test(line)) return '';
  // Table rules (`| --- | :-: |`), thematic breaks and setext underlines carry no words.
  if (/^[\s|:-]+$/.test(line) && line.includes('-')) return '';
  if (/^ {0,3}([-*_=])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return '';
  return line
    .replace(/^\s*(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/\|/g, ' ');
}

/**
 * Code is text to search, not markup: its `<` and `>` are hidden from the tag removal as entities,
 * which decodeEntities turns back at the end.
 */
function escapeCode(code: string): string {
  return code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Inline Markdown, HTML and Liquid reduced to their words. No span pattern may contain its own
 * opening character (nor a line break) and each is bounded, so no page, however written, makes the
 * scan quadratic: a run of unclosed `[`, `<`, `{%` or backticks costs one step each.
 */
function plainText(text: string): string {
  return decodeEntities(
    text
      .replace(/(`{1,16})([^`\n]{1,2000})\1/g, (_span, _ticks, code: string) => escapeCode(code))
      // Escaped punctuation is literal: kept as an entity so the rules below leave it alone.
      .replace(/\\([!-/:-@[-`{-~])/g, (_escape, char: string) => `&#${char.charCodeAt(0)};`)
      .replace(/<!--[^<\n]{0,2000}?-->/g, ' ')
      .replace(/\{%[^{}\n]{0,2000}%\}/g, ' ')
      .replace(/!?\[([^[\]\n]{0,2000})\](?:\([^()[\]\n]{0,2000}\)|\[[^[\]\n]{0,200}\])/g, '$1')
      .replace(/<((?:https?|mailto):[^<>\s]{1,2000})>/gi, '$1')
      .replace(/<\/?[A-Za-z][^<>\n]{0,2000}>/g, ' ')
      .replace(/\*+|~~|(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, '$1'),
  )
    .replace(/\s+/g, ' ')
    .trim();
}
