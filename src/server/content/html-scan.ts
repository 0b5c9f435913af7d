/**
 * Linear-time scans of the raw HTML Git Sync writes in Markdown (figures, details, summaries).
 * The lazy regexes they replace (`<figure[\s\S]*?<\/figure>`, `<[^>]*>`, …) are retried from every
 * `<` and each retry rescans to the same far closing string: quadratic on a block of many unclosed
 * tags. Here each closing string is searched for at most once per position, and a search that
 * fails ends the scan, since no later opening can find it either.
 */

/** The HTML without its `<!-- … -->` comments (an unclosed one is kept as text). */
export function withoutHtmlComments(html: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let open = html.indexOf('<!--'); open >= 0; open = html.indexOf('<!--', from)) {
    const close = html.indexOf('-->', open + 4);
    if (close < 0) break;
    parts.push(html.slice(from, open));
    from = close + 3;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/** Every `<…>` replaced by one space (an unclosed `<` is kept as text). */
export function tagsAsSpaces(html: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let open = html.indexOf('<'); open >= 0; open = html.indexOf('<', from)) {
    const close = html.indexOf('>', open + 1);
    if (close < 0) break;
    parts.push(html.slice(from, open), ' ');
    from = close + 1;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/** Positions of `<name` (case-insensitive; `boundary`: not followed by a word character). */
function* openings(html: string, name: string, boundary: boolean): Generator<number> {
  const pattern = new RegExp(`<${name}${boundary ? '\\b' : ''}`, 'giy');
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    pattern.lastIndex = at;
    if (pattern.test(html)) yield at;
  }
}

/** The first `<name …>` tag (through its `>`), like `/<name\b[^>]*>/i`. */
export function firstTag(html: string, name: string): string | undefined {
  for (const at of openings(html, name, true)) {
    const close = html.indexOf('>', at);
    return close < 0 ? undefined : html.slice(at, close + 1);
  }
  return undefined;
}

/** Whether some `<name …>` tag (or an unclosed one, to the end) matches `test`. */
export function someTag(html: string, name: string, test: RegExp): boolean {
  let after = 0;
  for (const at of openings(html, name, false)) {
    if (at < after) continue;
    const close = html.indexOf('>', at);
    const end = close < 0 ? html.length : close + 1;
    if (test.test(html.slice(at, end))) return true;
    if (close < 0) return false;
    after = end;
  }
  return false;
}

/** What the first `<name …>…</name>` holds, like `/<name[^>]*>([\s\S]*?)<\/name>/i`. */
export function elementContent(html: string, name: string): string | undefined {
  for (const at of openings(html, name, false)) {
    const open = html.indexOf('>', at);
    if (open < 0) return undefined;
    const close = new RegExp(`</${name}>`, 'gi');
    close.lastIndex = open + 1;
    const found = close.exec(html);
    return found ? html.slice(open + 1, found.index) : undefined;
  }
  return undefined;
}

/**
 * The image units of an HTML block in order: `<figure>…</figure>`, `<picture>…</picture>` and
 * bare `<img …>`, like `/<figure[\s\S]*?<\/figure>|<picture[\s\S]*?<\/picture>|<img\b[^>]*>/gi`.
 */
export function imageUnits(html: string): string[] {
  const units: string[] = [];
  const closers = [
    { opening: /<figure/iy, close: new ForwardSearch(html, /<\/figure>/gi) },
    { opening: /<picture/iy, close: new ForwardSearch(html, /<\/picture>/gi) },
    { opening: /<img\b/iy, close: new ForwardSearch(html, />/g) },
  ];
  for (let at = html.indexOf('<'); at >= 0;) {
    let end = -1;
    for (const { opening, close } of closers) {
      opening.lastIndex = at;
      if (opening.test(html)) end = close.endAfter(opening.lastIndex);
      if (end >= 0) break;
    }
    if (end >= 0) units.push(html.slice(at, end));
    at = html.indexOf('<', end >= 0 ? end : at + 1);
  }
  return units;
}

/** Repeated searches for one pattern from positions that only move forward. */
class ForwardSearch {
  private found: { from: number; index: number; end: number } | undefined;
  private noneFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly text: string,
    private readonly pattern: RegExp,
  ) {}

  /** End of the first match at or after `from`, or -1. */
  endAfter(from: number): number {
    if (from >= this.noneFrom) return -1;
    if (this.found && this.found.from <= from && this.found.index >= from) return this.found.end;
    this.pattern.lastIndex = from;
    const match = this.pattern.exec(this.text);
    if (!match) {
      this.noneFrom = from;
      return -1;
    }
    this.found = { from, index: match.index, end: match.index + match[0].length };
    return this.found.end;
  }
}
