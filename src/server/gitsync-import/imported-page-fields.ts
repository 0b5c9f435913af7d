import type { PageFields } from '../../shared/gitsync/page-fields';
import { FrontmatterError } from '../content/markdown-document';
import { readMarkdown } from '../resources/change-requests/read-markdown';

/**
 * The page fields an imported page's frontmatter sets (`description`, `icon`, `emoji`,
 * `hidden`, …), read as the API reads a page's Markdown. Layout and cover stay in the stored
 * frontmatter, as they do for a page the desktop pushes.
 */
export type ImportedFields = PageFields;

export type PageFieldsResult = ImportedFields | { message: string; line?: number };

export function pageFieldsOf(markdown: string): PageFieldsResult {
  try {
    return readMarkdown(markdown).fields;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) {
      return { message: 'could not be parsed; imported without its page fields' };
    }
    return {
      message: `${error.message}; imported without its page fields`,
      ...(error.line !== undefined ? { line: error.line } : {}),
    };
  }
}
