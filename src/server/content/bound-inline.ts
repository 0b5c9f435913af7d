/**
 * The inline half of boundMarkdown: within one inline span (a paragraph, a heading, a table row),
 * the constructs micromark resolves by scanning back or ahead over the whole span — emphasis and
 * strikethrough delimiter runs, link and image brackets, `<` (raw HTML, autolinks, comments) and
 * code-span openers that never close — each cost up to the span's length. A span may hold a
 * bounded number of each (its budget); beyond it they are backslash-escaped, so they stay as
 * literal text and cost nothing. Normal paragraphs are far below the budget and left unchanged.
 */

/** Occurrences of each costly construct an ordinary-sized span may hold before escaping starts. */
export const INLINE_BUDGET = 256;
/** Spans longer than this get a proportionally smaller budget, so the cost per character is bounded. */
export const INLINE_BUDGET_SPAN_LENGTH = 16_384;
/** The smallest budget, however long the span. */
export const MIN_INLINE_BUDGET = 8;
/** Code-span openers without a closer rescan the rest of the span: far fewer of those are allowed. */
export const UNCLOSED_CODE_BUDGET = 16;
/**
 * A `[` may be at most this far from its `]` (or, unclosed, from the end of its span): while a
 * bracket is open, GFM's email-autolink check walks back to it at every word, so a far one made a
 * paragraph quadratic. Farther brackets, and their `]`, are escaped.
 */
export const MAX_BRACKET_REACH = 2_000;

/** How many of each costly construct a span of `length` characters may hold. */
export function inlineBudget(length: number): number {
  if (length <= INLINE_BUDGET_SPAN_LENGTH) return INLINE_BUDGET;
  return Math.max(
    MIN_INLINE_BUDGET,
    Math.floor((INLINE_BUDGET * INLINE_BUDGET_SPAN_LENGTH) / length),
  );
}

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;

type Counter = 'delimiter' | 'open' | 'close' | 'angle' | 'code';

/**
 * Bounds one span. `segments` holds the span's text as `[from, to)` offset pairs of `text` (one per
 * line, after container markers); the offsets of characters to escape are appended to `escapes`.
 */
export function boundInlineSpan(
  text: string,
  segments: readonly number[],
  escapes: number[],
): void {
  let length = 0;
  for (let s = 0; s < segments.length; s += 2) length += segments[s + 1]! - segments[s]!;
  const budget = inlineBudget(length);
  const counts: Record<Counter, number> = { delimiter: 0, open: 0, close: 0, angle: 0, code: 0 };
  const over = (counter: Counter, limit = budget): boolean => ++counts[counter] > limit;
  const closers = new CodeSpanClosers(text, segments);
  const brackets = new BracketReach(escapes);
  const singleOpeners: number[] = [];

  for (let s = 0, i = segments[0] ?? 0; s < segments.length;) {
    const end = segments[s + 1]!;
    if (i >= end) {
      s += 2;
      i = Math.max(i, segments[s] ?? i);
      continue;
    }
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) {
      i += i + 1 < end && isAsciiPunctuation(text.charCodeAt(i + 1)) ? 2 : 1;
    } else if (code === BACKTICK) {
      const runEnd = runEndOf(text, i, end);
      const close = closers.after(i, runEnd - i);
      if (close >= 0) i = close;
      else {
        if (over('code', UNCLOSED_CODE_BUDGET)) {
          // Each escaped backtick is a one-backtick run to micromark's closer search: single
          // openers left unescaped before it would close on it, so they are escaped too.
          escapes.push(...singleOpeners.splice(0));
          for (let at = i; at < runEnd; at++) escapes.push(at);
        } else if (runEnd - i === 1) singleOpeners.push(i);
        i = runEnd;
      }
    } else if (code === 0x2a || code === 0x5f || code === 0x7e) {
      // `*`, `_`, `~`: a run that can open or close emphasis / strikethrough.
      const runEnd = runEndOf(text, i, end);
      if (canDelimit(text, i, runEnd, segments[s]!, end) && over('delimiter'))
        for (let at = i; at < runEnd; at++) escapes.push(at);
      i = runEnd;
    } else {
      const counter =
        code === 0x5b ? 'open' : code === 0x5d ? 'close' : code === 0x3c ? 'angle' : null;
      if (counter && over(counter)) escapes.push(i);
      else if (counter === 'open') brackets.open(i);
      else if (counter === 'close') brackets.close(i);
      i += 1;
    }
  }
  brackets.end(segments[segments.length - 1] ?? 0);
}

/** Pairs brackets as micromark does (a `]` balances the latest open `[`) and escapes far pairs. */
class BracketReach {
  private readonly openings: number[] = [];

  constructor(private readonly escapes: number[]) {}

  open(at: number): void {
    this.openings.push(at);
  }

  close(at: number): void {
    const opening = this.openings.pop();
    if (opening !== undefined && at - opening > MAX_BRACKET_REACH) this.escapes.push(opening, at);
  }

  /** Brackets still open at the end of the span reach to it. */
  end(at: number): void {
    for (const opening of this.openings) {
      if (at - opening > MAX_BRACKET_REACH) this.escapes.push(opening);
    }
  }
}

/** End of the run of the character at `from` (runs never cross a line). */
function runEndOf(text: string, from: number, end: number): number {
  const code = text.charCodeAt(from);
  let at = from + 1;
  while (at < end && text.charCodeAt(at) === code) at++;
  return at;
}

/**
 * Where the code span opened by a backtick run ends: just after the next run of exactly the same
 * length. Runs are indexed by length once, and lookups only move forward, so a span costs one pass
 * however many openers it has.
 */
class CodeSpanClosers {
  private readonly byLength = new Map<number, number[]>();
  private readonly cursor = new Map<number, number>();

  constructor(text: string, segments: readonly number[]) {
    for (let s = 0; s < segments.length; s += 2) {
      const end = segments[s + 1]!;
      for (let i = segments[s]!; i < end;) {
        if (text.charCodeAt(i) !== BACKTICK) {
          i++;
          continue;
        }
        const runEnd = runEndOf(text, i, end);
        const list = this.byLength.get(runEnd - i);
        if (list) list.push(i);
        else this.byLength.set(runEnd - i, [i]);
        i = runEnd;
      }
    }
  }

  /** End of the closing run for an opener of `length` at `from`, or -1 if it never closes. */
  after(from: number, length: number): number {
    const runs = this.byLength.get(length);
    if (!runs) return -1;
    let at = this.cursor.get(length) ?? 0;
    while (at < runs.length && runs[at]! <= from) at++;
    this.cursor.set(length, at);
    const close = runs[at];
    return close === undefined ? -1 : close + length;
  }
}

/** Whether a `*`/`_`/`~` run is left- or right-flanking (can open or close), per CommonMark. */
function canDelimit(text: string, from: number, to: number, lineStart: number, lineEnd: number) {
  const before = from > lineStart ? classify(text.charCodeAt(from - 1)) : 'space';
  const after = to < lineEnd ? classify(text.charCodeAt(to)) : 'space';
  const left = after !== 'space' && (after !== 'punctuation' || before !== 'other');
  const right = before !== 'space' && (before !== 'punctuation' || after !== 'other');
  // An intraword `_` run can neither open nor close.
  if (text.charCodeAt(from) === 0x5f && before === 'other' && after === 'other') return false;
  return left || right;
}

function classify(code: number): 'space' | 'punctuation' | 'other' {
  if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) return 'space';
  if (code < 0x80) return isAsciiPunctuation(code) ? 'punctuation' : 'other';
  const char = String.fromCharCode(code);
  if (/\s/.test(char)) return 'space';
  return /[\p{P}\p{S}]/u.test(char) ? 'punctuation' : 'other';
}

export function isAsciiPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}
