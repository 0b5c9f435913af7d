/**
 * Line-level recognizers of CommonMark block syntax for bound-markdown.ts's block scanner: each
 * reads at most the rest of one line, so the scan stays linear.
 */
import { isAsciiPunctuation } from './bound-inline';
import type { Container } from './bound-markdown';

export type Leaf =
  | { kind: 'none' | 'paragraph' | 'indented' | 'table' }
  | { kind: 'fence'; char: number; length: number }
  | { kind: 'html'; end: HtmlEnd };
/** How an HTML block ends: at a blank line, or at the line containing one of these strings. */
type HtmlEnd = 'blank' | readonly string[];

/** A place in the current line: offset and tab-expanded column. */
export interface Cursor {
  at: number;
  column: number;
}

const SPACE = 0x20;
const TAB = 0x09;
export const GREATER = 0x3e;

export function skipIndent(text: string, cursor: Cursor, end: number): Cursor {
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
export function afterOptionalSpace(text: string, cursor: Cursor, end: number): Cursor {
  const code = cursor.at < end ? text.charCodeAt(cursor.at) : -1;
  if (code === SPACE || code === TAB) return { at: cursor.at + 1, column: cursor.column + 1 };
  return cursor;
}

/** Consumes `columns` columns of indentation (a tab that overshoots is taken whole). */
export function consumeColumns(text: string, cursor: Cursor, columns: number): Cursor {
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
export function listItemStart(
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
export function footnoteDefinitionStart(
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

export function isThematicBreak(text: string, from: number, end: number): boolean {
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

export function isSetextUnderline(text: string, from: number, end: number): boolean {
  const marker = text.charCodeAt(from);
  if (marker !== 0x3d && marker !== 0x2d) return false;
  let at = from;
  while (at < end && text.charCodeAt(at) === marker) at++;
  return isBlank(text, at, end);
}

export function fenceOpening(text: string, from: number, end: number): Leaf | undefined {
  const char = text.charCodeAt(from);
  if (char !== 0x60 && char !== 0x7e) return undefined;
  let at = from;
  while (at < end && text.charCodeAt(at) === char) at++;
  if (at - from < 3) return undefined;
  // A backtick fence's info string may not contain a backtick.
  if (char === 0x60 && text.slice(at, end).includes('`')) return undefined;
  return { kind: 'fence', char, length: at - from };
}

export function isClosingFence(
  text: string,
  cursor: Cursor,
  end: number,
  char: number,
  length: number,
) {
  const indent = skipIndent(text, cursor, end);
  if (indent.column - cursor.column > 3) return false;
  let at = indent.at;
  while (at < end && text.charCodeAt(at) === char) at++;
  return at - indent.at >= length && isBlank(text, at, end);
}

/** Where an ATX heading's text starts, if the line is one. */
export function atxHeadingContent(text: string, from: number, end: number): number | undefined {
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
export function htmlBlockStart(
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

export function htmlEnds(text: string, from: number, end: number, how: HtmlEnd): boolean {
  if (how === 'blank') return isBlank(text, from, end);
  const line = text.slice(from, end).toLowerCase();
  return how.some((ending) => line.includes(ending));
}

/** Cells of a GFM delimiter row (`| --- | :-: |`), or 0 if the line is not one. */
export function delimiterRowColumns(text: string, from: number, end: number): number {
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
export function headerCells(
  text: string,
  from: number,
  to: number,
): { cells: number; pipes: boolean } {
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
