/**
 * Bounds Markdown before remark/micromark sees it. micromark is quadratic (and recursive) in the
 * nesting of containers, and quadratic in several inline constructs that scan the rest of their
 * span; a few kilobytes of `>` used to stall the server for minutes. One linear pass finds the
 * pathological spans and backslash-escapes just enough markers there that the parse stays bounded:
 *
 * - Containers (blockquotes, list items, any mix) nest at most MAX_CONTAINER_DEPTH deep; the
 *   marker that would open one more is escaped (`\>`, `\-`, `1\.`), so it and the rest of its line
 *   are literal text.
 * - A GFM table may have at most MAX_TABLE_COLUMNS columns; a wider one stays a paragraph of text
 *   (its delimiter row's first marker is escaped).
 * - Inline spans hold a bounded number of costly constructs (see bound-inline.ts).
 *
 * Escaping keeps every character (a backslash escape reads back as the character itself) and only
 * inserts backslashes, so parseMarkdown can map positions back to the original text. Ordinary
 * documents never reach a limit and come back unchanged. The pass models CommonMark's block
 * structure (containers, lazy lines, fences, HTML blocks, tables) closely enough to place escapes
 * where micromark sees markers; it is not a parser and produces no tree.
 */
import { boundInlineSpan, INLINE_BUDGET, isAsciiPunctuation } from './bound-inline';

export {
  INLINE_BUDGET,
  INLINE_BUDGET_SPAN_LENGTH,
  MAX_BRACKET_REACH,
  MIN_INLINE_BUDGET,
  UNCLOSED_CODE_BUDGET,
} from './bound-inline';

/** Blockquotes and list items nest at most this deep; deeper markers are kept as text. */
export const MAX_CONTAINER_DEPTH = 32;
/** GFM tables wider than this stay text. */
export const MAX_TABLE_COLUMNS = 128;
/**
 * The deepest a parsed tree can be: two nodes per container (list and item), two delimiter runs
 * per level of emphasis within a span's budget, and a few more for the root, a table's rows and
 * cells, a paragraph, a link and its text.
 */
export const MAX_MARKDOWN_TREE_DEPTH = 2 * MAX_CONTAINER_DEPTH + INLINE_BUDGET / 2 + 8;

export interface BoundedMarkdown {
  /** The Markdown to parse. */
  text: string;
  /** Offsets in the original Markdown before which a backslash was inserted, ascending. */
  escapes: number[];
}

/** The Markdown with its pathological spans escaped; ordinary Markdown is returned as is. */
export function boundMarkdown(markdown: string): string {
  return boundMarkdownEscapes(markdown).text;
}

/** boundMarkdown, also saying where backslashes were inserted (to map positions back). */
export function boundMarkdownEscapes(markdown: string): BoundedMarkdown {
  const scanner = new BlockScanner(markdown);
  scanner.scan();
  if (scanner.escapes.length === 0) return { text: markdown, escapes: [] };
  const escapes = [...new Set(scanner.escapes)].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const at of escapes) {
    parts.push(markdown.slice(from, at), '\\');
    from = at;
  }
  parts.push(markdown.slice(from));
  return { text: parts.join(''), escapes };
}

type Container = { kind: 'quote' } | { kind: 'item'; indent: number };
type Leaf =
  | { kind: 'none' | 'paragraph' | 'indented' | 'table' }
  | { kind: 'fence'; char: number; length: number }
  | { kind: 'html'; end: HtmlEnd };
/** How an HTML block ends: at a blank line, or at the line containing one of these strings. */
type HtmlEnd = 'blank' | readonly string[];

/** A place in the current line: offset and tab-expanded column. */
interface Cursor {
  at: number;
  column: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const GREATER = 0x3e;

class BlockScanner {
  readonly escapes: number[] = [];
  private readonly open: Container[] = [];
  private leaf: Leaf = { kind: 'none' };
  /** The open paragraph's text, as flat `[from, to)` pairs (see boundInlineSpan). */
  private paragraph: number[] = [];

  constructor(private readonly text: string) {}

  scan(): void {
    const { text } = this;
    let start = 0;
    while (start <= text.length) {
      let end = start;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
      this.line(start, end);
      if (end >= text.length) break;
      start = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
    }
    this.closeLeaf();
  }

  private line(start: number, end: number): void {
    let cursor: Cursor = { at: start, column: 0 };
    let matched = 0;
    for (; matched < this.open.length; matched++) {
      const next = this.continueContainer(this.open[matched]!, cursor, end);
      if (!next) break;
      cursor = next;
    }
    const allMatched = matched === this.open.length;
    if (allMatched && this.continueRawLeaf(cursor, end)) return;
    if (!allMatched && this.leaf.kind !== 'paragraph') this.closeLeaf();

    const opening = this.openContainers(cursor, end, matched, allMatched);
    const paragraphTip = this.leaf.kind === 'paragraph' && opening.opened === 0;
    if (opening.escapedAt !== undefined) {
      // The escaped marker and the rest of its line are paragraph text.
      if (!paragraphTip) this.startParagraph(matched + opening.opened);
      this.paragraph.push(opening.escapedAt + 1, end);
      return;
    }
    this.leafLine(opening.cursor, end, matched + opening.opened, paragraphTip, allMatched);
  }

  /** The cursor after an open container's continuation marker, or null if the line ends it. */
  private continueContainer(container: Container, cursor: Cursor, end: number): Cursor | null {
    const indent = skipIndent(this.text, cursor, end);
    if (container.kind === 'quote') {
      if (indent.column - cursor.column > 3 || this.text.charCodeAt(indent.at) !== GREATER)
        return null;
      return afterOptionalSpace(this.text, { at: indent.at + 1, column: indent.column + 1 }, end);
    }
    if (indent.at >= end) return cursor; // a blank line continues a list item
    if (indent.column - cursor.column < container.indent) return null;
    return consumeColumns(this.text, cursor, container.indent);
  }

  /** Fenced code, HTML blocks and indented code take their lines raw while they last. */
  private continueRawLeaf(cursor: Cursor, end: number): boolean {
    const { leaf, text } = this;
    if (leaf.kind === 'fence') {
      if (isClosingFence(text, cursor, end, leaf.char, leaf.length)) this.leaf = { kind: 'none' };
      return true;
    }
    if (leaf.kind === 'html') {
      if (htmlEnds(text, cursor.at, end, leaf.end)) this.leaf = { kind: 'none' };
      return true;
    }
    if (leaf.kind === 'indented') {
      const indent = skipIndent(text, cursor, end);
      return indent.at >= end || indent.column - cursor.column >= 4;
    }
    return false;
  }

  /** Opens the containers that start on this line, escaping the marker past the depth limit. */
  private openContainers(
    start: Cursor,
    end: number,
    matched: number,
    allMatched: boolean,
  ): { cursor: Cursor; opened: number; escapedAt?: number } {
    const { text } = this;
    let cursor = start;
    let opened = 0;
    for (;;) {
      const indent = skipIndent(text, cursor, end);
      if (indent.column - cursor.column >= 4) break;
      const paragraphTip = this.leaf.kind === 'paragraph' && opened === 0;
      let next: { cursor: Cursor; container: Container; escapeAt: number } | undefined;
      if (text.charCodeAt(indent.at) === GREATER) {
        const after = afterOptionalSpace(
          text,
          { at: indent.at + 1, column: indent.column + 1 },
          end,
        );
        next = { cursor: after, container: { kind: 'quote' }, escapeAt: indent.at };
      } else if (text.startsWith('[^', indent.at)) {
        next = footnoteDefinitionStart(text, indent, end);
      } else {
        if (isThematicBreak(text, indent.at, end)) break;
        if (paragraphTip && allMatched && isSetextUnderline(text, indent.at, end)) break;
        next = listItemStart(text, cursor, indent, end, paragraphTip);
      }
      if (!next) break;
      if (matched + opened >= MAX_CONTAINER_DEPTH) {
        this.escapes.push(next.escapeAt);
        if (opened === 0 && !paragraphTip) this.open.length = matched;
        return { cursor: indent, opened, escapedAt: next.escapeAt };
      }
      if (opened === 0) {
        this.closeLeaf();
        this.open.length = matched;
      }
      this.open.push(next.container);
      opened++;
      cursor = next.cursor;
      // A list item whose first line is blank or indented code holds no container on this line.
      if (
        next.container.kind === 'item' &&
        skipIndent(text, cursor, end).column - cursor.column >= 4
      )
        break;
    }
    return { cursor, opened };
  }

  /** What the rest of a line is once its containers are known. */
  private leafLine(
    cursor: Cursor,
    end: number,
    depth: number,
    paragraphTip: boolean,
    allMatched: boolean,
  ): void {
    const { text } = this;
    const indent = skipIndent(text, cursor, end);
    if (indent.at >= end) {
      this.closeLeaf();
      this.open.length = depth;
      return;
    }
    if (indent.column - cursor.column >= 4) {
      if (paragraphTip) this.paragraph.push(indent.at, end);
      else this.startLeaf({ kind: 'indented' }, depth);
      return;
    }
    const at = indent.at;
    const fence = fenceOpening(text, at, end);
    if (fence) return this.startLeaf(fence, depth);
    const heading = atxHeadingContent(text, at, end);
    if (heading !== undefined) {
      this.startLeaf({ kind: 'none' }, depth);
      boundInlineSpan(text, [heading, end], this.escapes);
      return;
    }
    if (paragraphTip && allMatched && isSetextUnderline(text, at, end)) return this.closeLeaf();
    if (isThematicBreak(text, at, end)) return this.startLeaf({ kind: 'none' }, depth);
    const html = htmlBlockStart(text, at, end, paragraphTip);
    if (html) {
      const ended = htmlEnds(text, at, end, html);
      this.startLeaf(ended ? { kind: 'none' } : { kind: 'html', end: html }, depth);
      return;
    }
    if (paragraphTip && allMatched && this.tableStarts(at, end)) return;
    if (this.leaf.kind === 'table' && allMatched) {
      boundInlineSpan(text, [at, end], this.escapes); // a body row
      return;
    }
    if (paragraphTip)
      this.paragraph.push(at, end); // continuation, lazy or not
    else {
      this.startParagraph(depth);
      this.paragraph.push(at, end);
    }
  }

  /**
   * A delimiter row under the paragraph's last line starts a table when the cell counts agree.
   * Too wide a table is refused by escaping the row's first marker: then it is paragraph text.
   */
  private tableStarts(at: number, end: number): boolean {
    const { text, paragraph } = this;
    const columns = delimiterRowColumns(text, at, end);
    if (columns === 0 || paragraph.length < 2) return false;
    const headerFrom = paragraph[paragraph.length - 2]!;
    const headerTo = paragraph[paragraph.length - 1]!;
    const header = headerCells(text, headerFrom, headerTo);
    if (header.cells !== columns || !(header.pipes || text.slice(at, end).includes('|')))
      return false;
    if (columns > MAX_TABLE_COLUMNS) {
      let marker = at;
      while (text[marker] === '|' || text[marker] === ' ' || text[marker] === '\t') marker++;
      this.escapes.push(marker);
      paragraph.push(at, end);
      return true;
    }
    // The header row is a span of its own; the paragraph lines before it stay one.
    paragraph.length -= 2;
    this.closeLeaf();
    boundInlineSpan(text, [headerFrom, headerTo], this.escapes);
    this.leaf = { kind: 'table' };
    return true;
  }

  private startLeaf(leaf: Leaf, depth: number = this.open.length): void {
    this.closeLeaf();
    this.open.length = Math.min(this.open.length, depth);
    this.leaf = leaf;
  }

  private startParagraph(depth: number): void {
    this.startLeaf({ kind: 'paragraph' }, depth);
  }

  private closeLeaf(): void {
    if (this.leaf.kind === 'paragraph' && this.paragraph.length > 0)
      boundInlineSpan(this.text, this.paragraph, this.escapes);
    this.paragraph = [];
    this.leaf = { kind: 'none' };
  }
}

// --- line-level recognizers (each reads at most the rest of one line) --------------------------

function skipIndent(text: string, cursor: Cursor, end: number): Cursor {
  let { at, column } = cursor;
  for (; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === SPACE) column++;
    else if (code === TAB) column += 4 - (column % 4);
    else break;
  }
  return { at, column };
}

/** After `>`: one optional space (or one column of a tab) belongs to the marker. */
function afterOptionalSpace(text: string, cursor: Cursor, end: number): Cursor {
  const code = cursor.at < end ? text.charCodeAt(cursor.at) : -1;
  if (code === SPACE || code === TAB) return { at: cursor.at + 1, column: cursor.column + 1 };
  return cursor;
}

/** Consumes `columns` columns of indentation (a tab that overshoots is taken whole). */
function consumeColumns(text: string, cursor: Cursor, columns: number): Cursor {
  let { at, column } = cursor;
  const target = cursor.column + columns;
  while (column < target) {
    const code = text.charCodeAt(at);
    if (code === SPACE) column++;
    else if (code === TAB) column += 4 - (column % 4);
    else break;
    at++;
  }
  return { at, column };
}

function isBlank(text: string, from: number, end: number): boolean {
  for (let at = from; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

/** A list marker (`-`, `+`, `*`, `1.`, `1)`) at `indent`, and the item it opens. */
function listItemStart(
  text: string,
  base: Cursor,
  indent: Cursor,
  end: number,
  paragraphTip: boolean,
): { cursor: Cursor; container: Container; escapeAt: number } | undefined {
  const at = indent.at;
  const first = text.charCodeAt(at);
  let markerEnd = at;
  let escapeAt = at;
  let ordered = false;
  if (first === 0x2d || first === 0x2b || first === 0x2a) markerEnd = at + 1;
  else {
    while (markerEnd < end && markerEnd - at < 9 && isDigit(text.charCodeAt(markerEnd)))
      markerEnd++;
    const delimiter = text.charCodeAt(markerEnd);
    if (markerEnd === at || (delimiter !== 0x2e && delimiter !== 0x29)) return undefined;
    escapeAt = markerEnd;
    markerEnd += 1;
    ordered = true;
  }
  const after = markerEnd < end ? text.charCodeAt(markerEnd) : -1;
  if (after !== -1 && after !== SPACE && after !== TAB) return undefined;
  const markerCursor = { at: markerEnd, column: indent.column + (markerEnd - at) };
  const content = skipIndent(text, markerCursor, end);
  const blank = content.at >= end;
  // Empty items and ordered lists not starting at 1 cannot interrupt a paragraph.
  if (paragraphTip && (blank || (ordered && Number(text.slice(at, escapeAt)) !== 1)))
    return undefined;
  const spaces = content.column - markerCursor.column;
  const contentCursor = blank || spaces > 4 ? afterOptionalSpace(text, markerCursor, end) : content;
  const width = blank ? markerCursor.column + 1 : contentCursor.column;
  return {
    cursor: contentCursor,
    container: { kind: 'item', indent: width - base.column },
    escapeAt,
  };
}

/**
 * A GFM footnote definition (`[^label]:`) is a container too: its content continues on lines
 * indented by four columns, and definitions nest.
 */
function footnoteDefinitionStart(
  text: string,
  indent: Cursor,
  end: number,
): { cursor: Cursor; container: Container; escapeAt: number } | undefined {
  let at = indent.at + 2;
  while (at < end && at - indent.at < 1001) {
    const code = text.charCodeAt(at);
    if (code === 0x5d || code === 0x5b || code === SPACE || code === TAB) break;
    at += code === 0x5c ? 2 : 1;
  }
  if (at === indent.at + 2 || text.charCodeAt(at) !== 0x5d || text.charCodeAt(at + 1) !== 0x3a)
    return undefined;
  const after = { at: at + 2, column: indent.column + (at + 2 - indent.at) };
  return {
    cursor: skipIndent(text, after, end),
    container: { kind: 'item', indent: 4 },
    escapeAt: indent.at,
  };
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isThematicBreak(text: string, from: number, end: number): boolean {
  const marker = text.charCodeAt(from);
  if (marker !== 0x2a && marker !== 0x2d && marker !== 0x5f) return false;
  let count = 0;
  for (let at = from; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === marker) count++;
    else if (code !== SPACE && code !== TAB) return false;
  }
  return count >= 3;
}

function isSetextUnderline(text: string, from: number, end: number): boolean {
  const marker = text.charCodeAt(from);
  if (marker !== 0x3d && marker !== 0x2d) return false;
  let at = from;
  while (at < end && text.charCodeAt(at) === marker) at++;
  return isBlank(text, at, end);
}

function fenceOpening(text: string, from: number, end: number): Leaf | undefined {
  const char = text.charCodeAt(from);
  if (char !== 0x60 && char !== 0x7e) return undefined;
  let at = from;
  while (at < end && text.charCodeAt(at) === char) at++;
  if (at - from < 3) return undefined;
  // A backtick fence's info string may not contain a backtick.
  if (char === 0x60 && text.slice(at, end).includes('`')) return undefined;
  return { kind: 'fence', char, length: at - from };
}

function isClosingFence(text: string, cursor: Cursor, end: number, char: number, length: number) {
  const indent = skipIndent(text, cursor, end);
  if (indent.column - cursor.column > 3) return false;
  let at = indent.at;
  while (at < end && text.charCodeAt(at) === char) at++;
  return at - indent.at >= length && isBlank(text, at, end);
}

/** Where an ATX heading's text starts, if the line is one. */
function atxHeadingContent(text: string, from: number, end: number): number | undefined {
  let at = from;
  while (at < end && at - from < 7 && text.charCodeAt(at) === 0x23) at++;
  const hashes = at - from;
  if (hashes === 0 || hashes > 6) return undefined;
  if (at < end && text.charCodeAt(at) !== SPACE && text.charCodeAt(at) !== TAB) return undefined;
  return at;
}

/** Tags that start a CommonMark HTML block of kind 6 (it ends at a blank line). */
const HTML_BLOCK_NAMES = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details ' +
    'dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 ' +
    'head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option ' +
    'p param search section summary table tbody td tfoot th thead title tr track ul'
  ).split(' '),
);
const RAW_HTML_ENDS = ['</script>', '</pre>', '</style>', '</textarea>'];
const HTML_ATTRIBUTE =
  '(?:\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^"\'=<>`\\x00-\\x20]+|\'[^\']*\'|"[^"]*"))?)';
/** A complete open or closing tag alone on its line (HTML block kind 7). */
const COMPLETE_TAG = new RegExp(
  `^(?:<[A-Za-z][A-Za-z0-9-]*${HTML_ATTRIBUTE}*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>)[ \\t]*$`,
);

/** How the HTML block starting at `from` ends, if one starts there (CommonMark kinds 1–7). */
function htmlBlockStart(
  text: string,
  from: number,
  end: number,
  paragraphTip: boolean,
): HtmlEnd | undefined {
  if (text.charCodeAt(from) !== 0x3c) return undefined;
  const head = text.slice(from, Math.min(end, from + 12)).toLowerCase();
  if (/^<(?:script|pre|style|textarea)(?:[\s>]|$)/.test(head)) return RAW_HTML_ENDS;
  if (head.startsWith('<!--')) return ['-->'];
  if (head.startsWith('<?')) return ['?>'];
  if (text.startsWith('<![CDATA[', from)) return [']]>'];
  if (/^<![a-z]/.test(head)) return ['>'];
  const name = /^<\/?([a-z][a-z0-9]*)(?:[\s>]|\/>|$)/.exec(head)?.[1];
  if (name && HTML_BLOCK_NAMES.has(name)) return 'blank';
  if (!paragraphTip && COMPLETE_TAG.test(text.slice(from, end))) return 'blank';
  return undefined;
}

function htmlEnds(text: string, from: number, end: number, how: HtmlEnd): boolean {
  if (how === 'blank') return isBlank(text, from, end);
  const line = text.slice(from, end).toLowerCase();
  return how.some((ending) => line.includes(ending));
}

/** Cells of a GFM delimiter row (`| --- | :-: |`), or 0 if the line is not one. */
function delimiterRowColumns(text: string, from: number, end: number): number {
  let cells = 0;
  let dashes = 0;
  let inCell = false;
  let afterDashes = false;
  let at = from;
  if (text.charCodeAt(at) === 0x7c) at++;
  for (; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x7c) {
      if (!inCell || dashes === 0) return 0;
      cells++;
      inCell = false;
      dashes = 0;
      afterDashes = false;
    } else if (code === SPACE || code === TAB) {
      if (dashes > 0) afterDashes = true;
    } else if (code === 0x2d && !afterDashes) {
      inCell = true;
      dashes++;
    } else if (code === 0x3a && !afterDashes) {
      if (dashes > 0) afterDashes = true;
      inCell = true;
    } else return 0;
  }
  if (inCell) {
    if (dashes === 0) return 0;
    cells++;
  }
  return cells;
}

/** Cells of a table header row: `|`-separated, outer pipes optional, `\|` escaped. */
function headerCells(text: string, from: number, to: number): { cells: number; pipes: boolean } {
  let end = to;
  while (end > from && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB))
    end--;
  let start = from;
  while (start < end && (text.charCodeAt(start) === SPACE || text.charCodeAt(start) === TAB))
    start++;
  let pipes = 0;
  let edges = 0;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x5c && isAsciiPunctuation(text.charCodeAt(at + 1))) at++;
    else if (code === 0x7c) {
      pipes++;
      if (at === start || at === end - 1) edges++;
    }
  }
  return { cells: pipes - edges + 1 - (start === end ? 1 : 0), pipes: pipes > 0 };
}

/**
 * Maps a point of the bounded text back to the original: `escapes` are boundMarkdownEscapes's
 * offsets; a point is moved back by the backslashes inserted before it (on its line, for the
 * column). Backslashes are never inserted before a line ending, so lines are unchanged.
 */
export function originalPoint(
  escapes: readonly number[],
  offset: number,
  column: number,
): { offset: number; column: number } {
  const before = insertedBefore(escapes, offset);
  const beforeLine = insertedBefore(escapes, offset - (column - 1));
  return { offset: offset - before, column: column - (before - beforeLine) };
}

/** How many inserted backslashes sit before `offset` of the bounded text (binary search). */
function insertedBefore(escapes: readonly number[], offset: number): number {
  // The j-th backslash (0-based) sits at escapes[j] + j in the bounded text.
  let low = 0;
  let high = escapes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (escapes[middle]! + middle < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
