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
 *
 * Hand-written because no library fits: the parsers that could find these spans (micromark,
 * markdown-it) are the ones that stall on them, and none offers nesting or inline budgets.
 */
import { boundInlineSpan, INLINE_BUDGET } from './bound-inline';
import {
  afterOptionalSpace,
  atxHeadingContent,
  consumeColumns,
  type Cursor,
  delimiterRowColumns,
  fenceOpening,
  footnoteDefinitionStart,
  GREATER,
  headerCells,
  htmlBlockStart,
  htmlEnds,
  isClosingFence,
  isSetextUnderline,
  isThematicBreak,
  type Leaf,
  listItemStart,
  skipIndent,
} from './markdown-block-lines';

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

export type Container = { kind: 'quote' } | { kind: 'item'; indent: number };

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
