/**
 * The page metadata a Markdown page carries, as Git Sync writes it: frontmatter fields and the
 * leading `# Title`. The page's published document is markdown-to-document.ts's.
 */
import { splitLeadingHeading } from '../../shared/gitsync/page-title';
import { parseMarkdown } from './parse-markdown';
import { readPageFrontmatter, type PageMarkdownFields } from './page-frontmatter';

export { FrontmatterError, type PageMarkdownFields } from './page-frontmatter';

export interface PageMarkdown {
  /** Frontmatter `title`, else the leading `# Heading`'s text. */
  title?: string;
  fields: PageMarkdownFields;
  /** Markdown after the frontmatter and the leading `# Heading` (which is the title slot). */
  body: string;
  /** Every frontmatter key (a fresh copy, JSON-safe), so unknown keys can be preserved. */
  frontmatter: Record<string, unknown>;
}

/**
 * Reads a Markdown page: its YAML frontmatter (the Git Sync page format of src/shared/gitsync)
 * and its leading `# Heading`. The title rule follows the published API ("frontmatter or leading
 * heading, which take precedence, matching Git Sync"). Throws FrontmatterError for invalid YAML,
 * non-YAML frontmatter and fields of the wrong type.
 */
export function readPageMarkdown(markdown: string): PageMarkdown {
  const source = markdown.replace(/^\uFEFF/, '');
  const { data, fields, title, content } = readPageFrontmatter(source);
  const { heading, body } = splitLeadingHeading(content, parseMarkdown);
  return { title: title ?? heading, fields, body, frontmatter: data };
}

export { TITLE_BLOCK_MAX_LENGTH } from '../../shared/gitsync/page-title';
