/**
 * Rewrites the targets of links and images in Git Sync Markdown without re-serialising anything
 * else, so every byte the rewrite does not touch stays as the server (or the user) wrote it.
 *
 * Targets are found in Markdown link/image destinations (`](target)`, `](<target with spaces>)`)
 * and in the attributes Git Sync writes paths into: HTML `src`, `srcset`, `href` and `data-*`, and
 * liquid tags' `src="…"` / `url="…"` (`{% file %}`, `{% embed %}`, `{% content-ref %}`). Fenced
 * code blocks and inline code spans are left alone: a path shown as an example is not a link.
 */

export type LinkTargetContext = 'markdown' | 'attribute';

/** Returns the new target, or undefined to keep the one written. */
export type LinkTargetRewriter = (target: string, context: LinkTargetContext) => string | undefined;

const FENCE = /^[ \t]*(`{3,}|~{3,})/;
/** `](` then a `<…>` destination or a raw one with at most one level of balanced parentheses. */
const DESTINATION = /\]\((<[^<>\n]*>|(?:[^\s()<]|\((?:[^\s()])*\))+)/g;
const ATTRIBUTE = /(\b(?:src|srcset|href|url|data-[\w-]+)=)(?:"([^"\n]*)"|'([^'\n]*)')/g;

export function rewriteLinkTargets(markdown: string, rewrite: LinkTargetRewriter): string {
  let fence: { char: string; length: number } | null = null;
  let changed = false;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      const run = fenceMatch?.[1];
      if (
        run &&
        run[0] === fence.char &&
        run.length >= fence.length &&
        /^[ \t]*[`~]+[ \t]*\r?$/.test(line)
      ) {
        fence = null;
      }
      continue;
    }
    if (fenceMatch?.[1]) {
      fence = { char: fenceMatch[1][0] ?? '`', length: fenceMatch[1].length };
      continue;
    }
    const rewritten = rewriteLine(line, rewrite);
    if (rewritten !== line) {
      lines[i] = rewritten;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : markdown;
}

/** Rewrites the parts of one line outside inline code spans. */
function rewriteLine(line: string, rewrite: LinkTargetRewriter): string {
  if (!line.includes('](') && !line.includes('=')) return line;
  let result = '';
  let position = 0;
  for (const span of codeSpans(line)) {
    result +=
      rewriteText(line.slice(position, span.start), rewrite) + line.slice(span.start, span.end);
    position = span.end;
  }
  return result + rewriteText(line.slice(position), rewrite);
}

/** Inline code spans: a backtick run closed by a run of the same length on the same line. */
function codeSpans(line: string): { start: number; end: number }[] {
  const runs = [...line.matchAll(/`+/g)].map((run) => ({
    start: run.index,
    length: run[0].length,
  }));
  const spans: { start: number; end: number }[] = [];
  for (let i = 0; i < runs.length; i += 1) {
    const open = runs[i]!;
    // An opening run without a closing run of the same length is literal text (CommonMark).
    const j = runs.findIndex((run, k) => k > i && run.length === open.length);
    if (j === -1) continue;
    const close = runs[j]!;
    spans.push({ start: open.start, end: close.start + close.length });
    i = j;
  }
  return spans;
}

function rewriteText(text: string, rewrite: LinkTargetRewriter): string {
  if (text === '') return text;
  const destinations = text.replace(DESTINATION, (whole, destination: string) => {
    const wrapped = destination.startsWith('<');
    const target = wrapped ? destination.slice(1, -1) : destination;
    const next = rewrite(target, 'markdown');
    return next === undefined ? whole : `](${markdownDestination(next)}`;
  });
  return destinations.replace(
    ATTRIBUTE,
    (whole, name: string, double: string | undefined, single: string | undefined) => {
      const target = double ?? single ?? '';
      const next = rewrite(target, 'attribute');
      if (next === undefined) return whole;
      return double !== undefined ? `${name}"${next}"` : `${name}'${next}'`;
    },
  );
}

/**
 * A destination as Git Sync writes it: in angle brackets when it holds spaces or parentheses
 * (`![](<.gitbook/assets/image (8).png>)`), bare otherwise.
 */
export function markdownDestination(target: string): string {
  return /[\s()]/.test(target) ? `<${target}>` : target;
}
