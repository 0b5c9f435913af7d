import type { JSONDocument } from '@gitbook/api';
import { FrontmatterError, readPageMarkdown } from './markdown-document';
import { markdownToDocument } from './markdown-to-document';

/**
 * The published JSON document of a stored page. The frontmatter and the leading `# Title` are
 * page fields, not content; a body whose frontmatter cannot be read is converted whole rather
 * than failing the read.
 */
export function pageDocument(markdown: string): JSONDocument {
  let body = markdown;
  try {
    body = readPageMarkdown(markdown).body;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
  }
  return markdownToDocument(body);
}
