/**
 * SUMMARY.md → its entries, for the server's import: the shared reader
 * (src/shared/gitsync/parse-summary-lines.ts). A computed page's block is skipped with a problem
 * (the server has no computed pages).
 */
import {
  parseSummaryLines,
  type SummaryEntry as SharedSummaryEntry,
  type SummaryProblem,
} from '../../shared/gitsync/parse-summary-lines';

export type SummaryEntry = SharedSummaryEntry;
export type { SummaryProblem };

export function summaryEntries(text: string): {
  entries: SummaryEntry[];
  problems: SummaryProblem[];
} {
  return parseSummaryLines<never>(text, ({ line }, problems) => {
    problems.push({ line, message: 'computed pages are not imported' });
    return undefined;
  });
}
