/**
 * Reads a Git Sync SUMMARY.md into its entries, line by line: the one reader of the desktop's
 * mirror (src/main/mirror/parse-summary.ts) and the server's import. SUMMARY.md is a small
 * line-based grammar, and a full Markdown parser is both slower (remark needs about half a second
 * for the 240 lines of GitBook's own docs) and looser about what it accepts. Understood:
 *
 * - a first `# Table of contents` / `# Summary` heading (ignored);
 * - `## Group` headings, optionally `## Group <a href="#slug" id="slug"></a>` pinning the slug;
 * - `***` (any thematic break), after which entries are top-level again;
 * - bullets (`*`, `-`, `+`) nested by indentation: `* [Title](path.md "link title")`, the link text
 *   as written with backslash escapes resolved, destinations bare or in `<…>`;
 * - a bullet holding a fenced code block: handed to the caller's `codeBlock` (the desktop reads
 *   computed pages' YAML there; the server imports none);
 * - blank lines and HTML comments.
 *
 * Anything else is reported as a problem with its line and skipped; this never throws.
 */
import { columns, groupTitle, parseLink } from './summary-syntax';

export type SummaryEntry<Computed = never> =
  | {
      kind: 'link';
      /** The link text, escapes resolved: the page title. */
      title: string;
      /** The destination as written (angle brackets and escapes removed, not percent-decoded). */
      destination: string;
      linkTitle?: string;
      /** 1-based line in SUMMARY.md (absent for entries inferred from folders). */
      line?: number;
      children: SummaryEntry<Computed>[];
    }
  | {
      kind: 'group';
      title: string;
      slug: string;
      line?: number;
      children: SummaryEntry<Computed>[];
    }
  | { kind: 'computed'; source: Computed; line?: number; children: SummaryEntry<Computed>[] };

export interface SummaryProblem {
  line: number;
  message: string;
}

/** A fenced block in a bullet → the computed entry's source, or undefined (with a problem). */
export type SummaryCodeBlock<Computed> = (
  block: { language: string; body: string; line: number },
  problems: SummaryProblem[],
) => Computed | undefined;

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^([ \t]*)([*+-])(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE_OPEN = /^(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;
const COMMENT = /^[ \t]*<!--.*-->[ \t]*$/;

export function parseSummaryLines<Computed = never>(
  text: string,
  codeBlock: SummaryCodeBlock<Computed>,
): { entries: SummaryEntry<Computed>[]; problems: SummaryProblem[] } {
  type Entry = SummaryEntry<Computed>;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const problems: SummaryProblem[] = [];
  const top: Entry[] = [];
  let container = top;
  /** Open bullets, innermost last, with the column their marker is at. */
  let stack: { indent: number; entry: Entry }[] = [];
  let sawEntry = false;

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const number = i + 1;
    if (line.trim() === '' || COMMENT.test(line)) continue;

    const heading = HEADING.exec(line);
    if (heading) {
      stack = [];
      if (heading[1] === '#' && !sawEntry) continue;
      const group: Entry = {
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
    const bullet = BULLET.exec(line);
    if (!bullet) {
      problems.push({
        line: number,
        message: 'unexpected line: SUMMARY.md holds headings, bullet lists and *** only',
      });
      continue;
    }
    sawEntry = true;
    const indent = columns(bullet[1] ?? '');
    const content = bullet[3] ?? '';
    let entry: Entry | undefined;
    const fence = FENCE_OPEN.exec(content);
    if (fence) {
      // The block's lines are indented to the bullet's content column.
      const contentColumn = line.length - line.trimStart().length + 2;
      const block = readFence(lines, i + 1, fence[1] ?? '```', contentColumn);
      const language = fence[2] ?? '';
      const source = codeBlock({ language, body: block.body, line: number }, problems);
      if (source !== undefined) entry = { kind: 'computed', source, line: number, children: [] };
      i = block.end;
    } else {
      const link = parseLink(content);
      if (link) entry = { kind: 'link', ...link, line: number, children: [] };
      else {
        problems.push({
          line: number,
          message: 'entry without a [Title](file.md) link; its sub-entries are kept one level up',
        });
      }
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.indent ?? 0) >= indent) stack.pop();
    if (!entry) continue;
    const parent = stack[stack.length - 1]?.entry;
    (parent ? parent.children : container).push(entry);
    stack.push({ indent, entry });
  }
  return { entries: top, problems };
}

function readFence(
  lines: readonly string[],
  start: number,
  opening: string,
  contentColumn: number,
): { body: string; end: number } {
  const body: string[] = [];
  for (let i = start; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed.startsWith(opening[0] ?? '`') && /^(`{3,}|~{3,})$/.test(trimmed)) {
      if (trimmed[0] === opening[0] && trimmed.length >= opening.length) {
        return { body: body.join('\n'), end: i };
      }
    }
    const indent = line.length - line.trimStart().length;
    body.push(line.slice(Math.min(indent, contentColumn)));
  }
  return { body: body.join('\n'), end: lines.length - 1 };
}
