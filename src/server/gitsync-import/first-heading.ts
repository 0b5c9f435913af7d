import { findFrontmatterBlock } from '../../shared/gitsync/frontmatter-block';
import { unescapeMarkdown } from '../../shared/gitsync/page-title';

const ATX_HEADING = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/**
 * The text of a page's leading `# Heading` (after its frontmatter), or `''`: the title of a page
 * whose tree was inferred without SUMMARY.md. A line check, not a Markdown parse, since the
 * planner reads every page of an import (Git Sync writes titles as one ATX line).
 */
export function firstHeading(markdown: string): string {
  const body = findFrontmatterBlock(markdown)?.body ?? markdown;
  const line = /^\s*([^\n]*)/.exec(body)?.[1]?.replace(/\r$/, '') ?? '';
  const heading = ATX_HEADING.exec(line);
  return heading ? unescapeMarkdown(heading[1] ?? '').trim() : '';
}
