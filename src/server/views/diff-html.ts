/**
 * A line diff as HTML: added lines in <ins>, removed ones in <del> (announced as such by screen
 * readers), long unchanged runs folded to CONTEXT_LINES around each change.
 */
import type { LineDiffPart } from './line-diff';
import { markup, type SafeHtml } from './safe-html';

export const CONTEXT_LINES = 3;

function line(kind: LineDiffPart['kind'], text: string): SafeHtml {
  if (kind === 'added') return markup`<ins>+ ${text}</ins>`;
  if (kind === 'removed') return markup`<del>- ${text}</del>`;
  return markup`<span>  ${text}</span>`;
}

function skipped(count: number): SafeHtml {
  return markup`<span class="skipped">… ${count} unchanged line${count === 1 ? '' : 's'}</span>`;
}

/** The unchanged lines of one run that stay visible: next to a change, at most CONTEXT_LINES. */
function sameRun(lines: readonly string[], first: boolean, last: boolean): SafeHtml[] {
  const head = first ? 0 : CONTEXT_LINES;
  const tail = last ? 0 : CONTEXT_LINES;
  if (lines.length <= head + tail + 1) return lines.map((text) => line('same', text));
  return [
    ...lines.slice(0, head).map((text) => line('same', text)),
    skipped(lines.length - head - tail),
    ...lines.slice(lines.length - tail).map((text) => line('same', text)),
  ];
}

/** A diff of one page body; null (too large) says so instead. */
export function renderLineDiff(parts: readonly LineDiffPart[] | null, label: string): SafeHtml {
  if (parts === null) return markup`<p class="meta">This diff is too large to show.</p>`;
  if (!parts.some((part) => part.kind !== 'same')) {
    return markup`<p class="meta">No change to the text.</p>`;
  }
  const rows = parts.flatMap((part, i) =>
    part.kind === 'same'
      ? sameRun(part.lines, i === 0, i === parts.length - 1)
      : part.lines.map((text) => line(part.kind, text)),
  );
  return markup`<pre class="diff" aria-label="${label}">${rows}</pre>`;
}
