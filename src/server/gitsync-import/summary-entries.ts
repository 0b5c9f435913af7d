/**
 * SUMMARY.md → its entries, for the server's import. The same line grammar as the desktop's
 * reader (src/main/mirror/parse-summary.ts), sharing its lexical pieces (summary-syntax.ts): a first `# …`
 * heading, `## Group` headings (an `<a id>` pins the slug), thematic breaks ending a group,
 * `* [Title](path.md "link title")` bullets nested by indentation. A fenced computed-page block
 * is skipped with a problem (the server has no computed pages); so is any other line.
 */
import { columns, groupTitle, parseLink } from '../../shared/gitsync/summary-syntax';

export type SummaryEntry =
  | {
      kind: 'link';
      title: string;
      destination: string;
      linkTitle?: string;
      line: number;
      children: SummaryEntry[];
    }
  | { kind: 'group'; title: string; slug: string; line: number; children: SummaryEntry[] };

export interface SummaryProblem {
  line: number;
  message: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^([ \t]*)[*+-](?:[ \t]+(.*?))?[ \t]*$/;
const FENCE = /^[ \t]*(?:[*+-][ \t]+)?(`{3,}|~{3,})/;
const COMMENT = /^[ \t]*<!--.*-->[ \t]*$/;

export function summaryEntries(text: string): {
  entries: SummaryEntry[];
  problems: SummaryProblem[];
} {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const problems: SummaryProblem[] = [];
  const top: SummaryEntry[] = [];
  let container = top;
  let stack: { indent: number; entry: SummaryEntry }[] = [];
  let sawEntry = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const number = i + 1;
    if (line.trim() === '' || COMMENT.test(line)) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      stack = [];
      if (heading[1] === '#' && !sawEntry) continue;
      const group: SummaryEntry = {
        kind: 'group',
        ...groupTitle(heading[2] ?? ''),
        line: number,
        children: [],
      };
      top.push(group);
      container = group.children;
      sawEntry = true;
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      stack = [];
      container = top;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence?.[1]) {
      i = fenceEnd(lines, i + 1, fence[1]);
      problems.push({ line: number, message: 'computed pages are not imported' });
      continue;
    }
    const bullet = BULLET.exec(line);
    const link = bullet ? parseLink(bullet[2] ?? '') : undefined;
    if (!bullet || !link) {
      problems.push({ line: number, message: 'not a [Title](file.md) entry; skipped' });
      continue;
    }
    sawEntry = true;
    const indent = columns(bullet[1] ?? '');
    while (stack.length > 0 && (stack[stack.length - 1]?.indent ?? 0) >= indent) stack.pop();
    const entry: SummaryEntry = { kind: 'link', ...link, line: number, children: [] };
    (stack[stack.length - 1]?.entry.children ?? container).push(entry);
    stack.push({ indent, entry });
  }
  return { entries: top, problems };
}

function fenceEnd(lines: readonly string[], start: number, opening: string): number {
  for (let i = start; i < lines.length; i += 1) {
    const trimmed = (lines[i] ?? '').trim();
    if (trimmed[0] === opening[0] && /^(`{3,}|~{3,})$/.test(trimmed)) {
      if (trimmed.length >= opening.length) return i;
    }
  }
  return lines.length - 1;
}
