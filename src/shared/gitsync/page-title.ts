/**
 * A Git Sync page's title as its file gives it: `title:` in the frontmatter wins, else the
 * leading `# Heading`. Shared by the engine (which predicts what the server will store) and the
 * server (which reads it from the Markdown it is sent), so the two never disagree.
 */
import type { Root } from 'mdast';
import { nodeText } from '../markdown/node-text';

/**
 * Resolves CommonMark backslash escapes (a backslash before ASCII punctuation), and the numeric
 * references the mirror writes for control characters in titles (`&#x7;`), so they read back as
 * the title they came from.
 */
export function unescapeMarkdown(text: string): string {
  return text
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&#x([0-9A-F]{1,2});/g, (reference, hex: string) =>
      isControl(parseInt(hex, 16)) ? String.fromCharCode(parseInt(hex, 16)) : reference,
    );
}

/** A CommonMark + GFM parser: the server passes its bounded one, the engine remark's own. */
export type ParseMarkdown = (markdown: string) => Root;

/**
 * The title heading is looked for in at most this many characters of the page: an ATX heading is
 * one line and a setext heading a paragraph and its underline, so only a heading longer than this
 * (read as text then) is missed, and a huge first block is never parsed just to find the title.
 */
export const TITLE_BLOCK_MAX_LENGTH = 16_384;

/**
 * The leading level-1 heading is the page title slot in Git Sync files; the body follows it. The
 * title is the heading's text (markup removed, whitespace collapsed), as the server stores it.
 */
export function splitLeadingHeading(
  content: string,
  parse: ParseMarkdown,
): { heading?: string; body: string } {
  const block = titleBlock(content);
  const first = parse(block).children[0];
  if (!first || first.type !== 'heading' || first.depth !== 1) return { body: content };
  const end = first.position?.end.offset;
  if (end === undefined) return { body: content };
  // CommonMark reads `&#x7;` as U+FFFD; the mirror writes control characters of titles that way
  // so that they read back as themselves (same block structure, so the same first child).
  const titleNode = CONTROL_REFERENCE.test(block)
    ? (parse(decodeControlReferences(block)).children[0] ?? first)
    : first;
  const heading = nodeText(titleNode).replace(/\s+/g, ' ').trim();
  return {
    heading: heading || undefined,
    body: content.slice(end).replace(/^[ \t]*\r?\n(?:[ \t]*\r?\n)*/, ''),
  };
}

/** `&#xN;` naming a C0 or C1 control character, as the mirror writes them in titles. */
const CONTROL_REFERENCE = /&#x([0-9A-F]{1,2});/;

/** Only those CommonMark would replace: tab, line feed, form feed and CR read as themselves. */
function decodeControlReferences(text: string): string {
  return text.replace(new RegExp(CONTROL_REFERENCE.source, 'g'), (reference, hex: string) => {
    const code = parseInt(hex, 16);
    const keptByCommonMark = code >= 9 && code <= 13 && code !== 11;
    return isControl(code) && !keptByCommonMark ? String.fromCharCode(code) : reference;
  });
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** The title a page's leading heading gives (see splitLeadingHeading). */
export function leadingHeading(content: string, parse: ParseMarkdown): string | undefined {
  return splitLeadingHeading(content, parse).heading;
}

/**
 * Only the first block can be the title, and it ends at the first blank line after some text:
 * parsing that prefix alone gives the same answer at a fraction of the cost on long pages. It is
 * cut to whole lines within TITLE_BLOCK_MAX_LENGTH.
 */
function titleBlock(content: string): string {
  const prefix = content.slice(0, TITLE_BLOCK_MAX_LENGTH + 1);
  const block = /^\s*\S[^\n]*(?:\n(?![ \t]*\r?\n)[^\n]*)*/.exec(prefix)?.[0] ?? '';
  if (block.length <= TITLE_BLOCK_MAX_LENGTH) return block;
  const lastNewline = block.lastIndexOf('\n');
  return lastNewline < 0 ? '' : block.slice(0, lastNewline);
}
