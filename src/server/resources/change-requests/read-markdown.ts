import type { PageFieldsInput, ReadMarkdown } from '../../content/apply-content-changes';
import { readPageMarkdown } from '../../content/markdown-document';

const PAGE_FIELDS = ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/**
 * A first line that is a `# Title` made only of letters, digits, spaces and punctuation that has
 * no meaning in Markdown inline syntax: its text is the title exactly as Markdown reads it.
 */
const PLAIN_HEADING = /^# +([\p{L}\p{N}][\p{L}\p{N} ,.:;?!'"()/+=%@$-]*?)[ ]*(?:\r?\n|$)/u;

/**
 * What applyContentChanges needs from a page's Markdown: the title (frontmatter, else the leading
 * `# Heading`) and the page fields its frontmatter sets. The body kept is the Markdown exactly as
 * sent, frontmatter and heading included, so a page reads back (format=markdown) as it was written.
 *
 * Most pages start with a plain `# Title` and no frontmatter; their title is read without running
 * the Markdown parser (about a millisecond a page), which keeps 50-change batches fast.
 */
export const readMarkdown: ReadMarkdown = (markdown) => {
  const plain = PLAIN_HEADING.exec(markdown);
  if (plain?.[1]) return { title: plain[1].replace(/ +/g, ' '), fields: {}, body: markdown };
  const read = readPageMarkdown(markdown);
  const fields: PageFieldsInput = {};
  for (const key of PAGE_FIELDS) {
    if (read.fields[key] !== undefined) (fields as Record<string, unknown>)[key] = read.fields[key];
  }
  return { ...(read.title !== undefined ? { title: read.title } : {}), fields, body: markdown };
};
