/**
 * SUMMARY.md → its entries, for the server's import. The same line grammar as the desktop's
 * reader (src/main/mirror/parse-summary.ts, which the server may not import): a first `# …`
 * heading, `## Group` headings (an `<a id>` pins the slug), thematic breaks ending a group,
 * `* [Title](path.md "link title")` bullets nested by indentation. A fenced computed-page block
 * is skipped with a problem (the server has no computed pages); so is any other line.
 */
import { unescapeMarkdown } from '../../shared/gitsync/page-title';
import { titleSlug } from '../../shared/gitsync/title-slug';

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

function columns(whitespace: string): number {
  let width = 0;
  for (const char of whitespace) width = char === '\t' ? width + 4 - (width % 4) : width + 1;
  return width;
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

function groupTitle(raw: string): { title: string; slug: string } {
  const anchor = /(?<!\\)<a\s[^<>]*\bid="([^"]*)"[^<>]*>\s*<\/a>\s*$/i.exec(raw);
  const title = unescapeMarkdown(anchor ? raw.slice(0, anchor.index) : raw).trim();
  const id = anchor?.[1] === undefined ? '' : decodeHtml(anchor[1]);
  return { title, slug: id || titleSlug(title) };
}

/** `[text](destination "title")` filling the whole bullet (see the desktop's parseLink). */
function parseLink(
  content: string,
): { title: string; destination: string; linkTitle?: string } | undefined {
  if (!content.startsWith('[')) return undefined;
  let depth = 0;
  let i = 0;
  for (; i < content.length; i += 1) {
    const char = content[i];
    if (char === '\\') i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']' && --depth === 0) break;
  }
  if (depth !== 0 || content[i + 1] !== '(') return undefined;
  const title = unescapeMarkdown(content.slice(1, i));
  let rest = content.slice(i + 2);
  let destination: string;
  if (rest.startsWith('<')) {
    const close = rest.indexOf('>');
    if (close === -1) return undefined;
    destination = rest.slice(1, close);
    rest = rest.slice(close + 1);
  } else {
    let parens = 0;
    let j = 0;
    for (; j < rest.length; j += 1) {
      const char = rest[j];
      if (char === '\\') j += 1;
      else if (char === '(') parens += 1;
      else if (char === ')') {
        if (parens === 0) break;
        parens -= 1;
      } else if (char === ' ' || char === '\t') break;
    }
    destination = rest.slice(0, j);
    rest = rest.slice(j);
  }
  const tail =
    /^[ \t]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|\(((?:[^()\\]|\\.)*)\))?[ \t]*\)$/.exec(
      rest,
    );
  if (!tail) return undefined;
  const linkTitle = tail[1] ?? tail[2] ?? tail[3];
  return {
    title,
    destination: unescapeMarkdown(destination),
    ...(linkTitle ? { linkTitle: unescapeMarkdown(linkTitle) } : {}),
  };
}

function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
