import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * CommonMark + GFM, as the server parses pages, for the title block only (at most 16 KB: see
 * TITLE_BLOCK_MAX_LENGTH), so the engine reads a page's title exactly as the server will store it.
 */
export function parseTitleBlock(markdown: string): Root {
  return parser.parse(markdown);
}
