/**
 * Bounds how deeply imported HTML can nest before the unified stack sees it. hast-util-from-parse5,
 * hast-util-to-mdast and mdast-util-to-markdown all recurse once per level (500 nested table
 * cells overflow the stack), and mdast-util-to-markdown's attention handling grows
 * exponentially with nested emphasis (50 nested `<b><i>` take seconds). parse5 itself does not
 * bound depth either: it re-opens unclosed formatting elements (`<b>`, `<i>` …) inside every later
 * block, so sloppy markup nests without nesting in the source.
 *
 * This is one linear pass over the tags, with a small model of the elements open at each point:
 * a start tag that would open an element deeper than MAX_DEPTH, or a formatting element beyond
 * MAX_MARKS unclosed ones, is dropped (its content stays, one level up). No library does this:
 * parsers that bound depth (browsers) do so inside their tree builder, which parse5 does not offer.
 * The model over-counts rather than under-counts (it knows only the common implied end tags); real
 * documents nest far less than MAX_DEPTH and rarely hold more than MAX_MARKS marks in one another.
 */

/** Elements deeper than this lose their tag: far within every recursive step's stack. */
export const MAX_DEPTH = 64;
/** Unclosed formatting elements beyond this lose their tag (nested emphasis is exponential). */
export const MAX_MARKS = 4;

const VOID = new Set(
  'area base br col embed hr img input link meta param source track wbr keygen'.split(' '),
);
/** parse5's formatting elements (re-opened after implicit closes) and the other mark elements. */
const MARKS = new Set(
  'a b big code del em font i mark nobr q s small strike strong tt u'.split(' '),
);
/** Opening the key closes an open element it names, but never past a boundary (HTML's implied ends). */
const IMPLIED_END: Record<string, { closes: readonly string[]; stops: readonly string[] }> = {
  li: { closes: ['li'], stops: ['ul', 'ol', 'menu', 'dir'] },
  dt: { closes: ['dt', 'dd'], stops: ['dl'] },
  dd: { closes: ['dt', 'dd'], stops: ['dl'] },
  tr: { closes: ['tr', 'td', 'th'], stops: ['table', 'tbody', 'thead', 'tfoot'] },
  td: { closes: ['td', 'th'], stops: ['tr', 'table'] },
  th: { closes: ['td', 'th'], stops: ['tr', 'table'] },
  option: { closes: ['option'], stops: ['select', 'datalist'] },
  p: { closes: ['p'], stops: ['div', 'td', 'th', 'li', 'blockquote', 'section', 'article'] },
};

/**
 * A tag, or a comment (skipped). `[^<>]*` rather than quote-aware attributes keeps every failed
 * match short (it stops at the next `<`), so the pass stays linear on unterminated tags.
 */
const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*>/g;

class OpenElements {
  private readonly names: string[] = [];
  private readonly marks = new Map<string, number>();
  private markCount = 0;

  /** Whether the start tag may stay; if so, it is now open. */
  open(name: string): boolean {
    if (VOID.has(name)) return true;
    // At the limit, even a tag that would first close one (`<tr>` in a cell) is dropped: every
    // start tag there is hostile, and this keeps the kept ones from repeating without end.
    if (this.names.length >= MAX_DEPTH) return false;
    this.closeImplied(name);
    if (MARKS.has(name)) {
      if (this.markCount >= MAX_MARKS) return false;
      this.markCount += 1;
      this.marks.set(name, (this.marks.get(name) ?? 0) + 1);
    }
    this.names.push(name);
    return true;
  }

  close(name: string): void {
    const open = this.marks.get(name) ?? 0;
    if (open > 0) {
      // Only its own end tag closes a formatting element for good (see the module comment).
      this.marks.set(name, open - 1);
      this.markCount -= 1;
    }
    const at = this.names.lastIndexOf(name);
    if (at >= 0) this.names.length = at;
  }

  private closeImplied(name: string): void {
    const rule = IMPLIED_END[name];
    if (!rule) return;
    for (let at = this.names.length - 1; at >= 0; at -= 1) {
      const open = this.names[at]!;
      if (rule.stops.includes(open)) return;
      if (rule.closes.includes(open)) {
        this.names.length = at;
        return;
      }
    }
  }
}

/** The HTML with every start tag removed that would nest beyond the limits above. */
export function capHtmlNesting(html: string): string {
  const open = new OpenElements();
  return html.replace(TAG, (tag, slash: string | undefined, rawName: string | undefined) => {
    if (!rawName) return tag;
    const name = rawName.toLowerCase();
    if (slash) {
      open.close(name);
      return tag;
    }
    return open.open(name) ? tag : '';
  });
}
