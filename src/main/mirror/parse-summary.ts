/**
 * The desktop's SUMMARY.md reader: the shared line reader (src/shared/gitsync/parse-summary-lines.ts)
 * with computed pages, whose ```` ```yaml ```` source is read with the engine's frontmatter code.
 */
import { messageOf } from '../../shared/message-of';
import type { MirrorComputedSource } from '../../shared/gitsync/gitsync-types';
import { FrontmatterError, parseFrontmatterYaml } from '../../shared/gitsync/page-frontmatter';
import {
  parseSummaryLines,
  type SummaryEntry as SharedSummaryEntry,
  type SummaryProblem,
} from '../../shared/gitsync/parse-summary-lines';

export type SummaryEntry = SharedSummaryEntry<MirrorComputedSource>;
export type { SummaryProblem };

export function parseSummary(text: string): {
  entries: SummaryEntry[];
  problems: SummaryProblem[];
} {
  return parseSummaryLines(text, computedSource);
}

function computedSource(
  block: { language: string; body: string; line: number },
  problems: SummaryProblem[],
): MirrorComputedSource | undefined {
  const { language, body, line } = block;
  if (language !== 'yaml') {
    problems.push({ line, message: 'a code block entry must be a ```yaml computed page source' });
    return undefined;
  }
  try {
    const data = parseFrontmatterYaml(body);
    if (typeof data['type'] !== 'string') throw new FrontmatterError('it has no "type"');
    return data as MirrorComputedSource;
  } catch (error) {
    problems.push({ line, message: `invalid computed page source: ${messageOf(error)}` });
    return undefined;
  }
}
