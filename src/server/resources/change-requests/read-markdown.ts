import { pickPageFields } from '../../../shared/gitsync/page-fields';
import type { ReadMarkdown } from '../../content/apply-content-changes';
import { readPageMarkdown } from '../../content/markdown-document';

/**
 * A first line that is a `# Title` made only of letters, digits, spaces and punctuation that has
 * no meaning in Markdown inline syntax: its text is the title exactly as Markdown reads it. Matched
 * against the first line alone and anchored at its end, with trailing spaces trimmed afterwards:
 * a lazy title followed by `[ ]*` backtracked quadratically over a long run of spaces (40,000
 * spaces took 4.6 s).
 */
const PLAIN_HEADING = /^# +([\p{L}\p{N}][\p{L}\p{N} ,.:;?!'"()/+=%@$-]*)$/u;

/** The title of a plain `# Title` first line, or undefined (see PLAIN_HEADING). */
function plainHeading(markdown: string): string | undefined {
  const newline = markdown.indexOf('\n');
  const line = newline === -1 ? markdown : markdown.slice(0, newline).replace(/\r$/, '');
  const title = PLAIN_HEADING.exec(line)?.[1]?.trimEnd();
  return title ? title.replace(/ +/g, ' ') : undefined;
}

/**
 * What applyContentChanges needs from a page's Markdown: the title (frontmatter, else the leading
 * `# Heading`) and the page fields its frontmatter sets. The body kept is the Markdown exactly as
 * sent, frontmatter and heading included, so a page reads back (format=markdown) as it was written.
 *
 * Most pages start with a plain `# Title` and no frontmatter; their title is read without running
 * the Markdown parser (about a millisecond a page), which keeps 50-change batches fast.
 */
export const readMarkdown: ReadMarkdown = (markdown) => {
  const plain = plainHeading(markdown);
  if (plain) return { title: plain, fields: {}, body: markdown };
  const read = readPageMarkdown(markdown);
  const fields = pickPageFields(read.fields);
  return { ...(read.title !== undefined ? { title: read.title } : {}), fields, body: markdown };
};
