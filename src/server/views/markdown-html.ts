/**
 * A stored page body → sanitised HTML, for the read-only views. Pure and CPU-bound: it runs on
 * the worker threads (the `page-markup` job), never on the server's event loop.
 *
 * The Markdown is parsed by the server's one bounded parser (parseMarkdown: pathological nesting
 * and marker runs are read as text), raw HTML in it is dropped by remark-rehype (it is not
 * passed through), and rehype-sanitize then keeps only GitHub's allow-list of elements and
 * attributes, with links limited to http(s) and mailto and images to http(s).
 */
import type { Root as HastRoot } from 'hast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { FrontmatterError, readPageMarkdown } from '../content/markdown-document';
import { parseMarkdown } from '../content/parse-markdown';

const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
  },
};

const toHtml = unified().use(remarkRehype).use(rehypeSanitize, SCHEMA).use(rehypeStringify);

/** Sanitised HTML of Markdown as written (a comment, a description). */
export function markdownToHtml(markdown: string): string {
  const hast = toHtml.runSync(parseMarkdown(markdown)) as HastRoot;
  return toHtml.stringify(hast);
}

/**
 * Sanitised HTML of a stored page body: its frontmatter and leading `# Title` are page fields,
 * shown by the view around it; a body whose frontmatter cannot be read is rendered whole.
 */
export function pageBodyToHtml(markdown: string): string {
  let body = markdown;
  try {
    body = readPageMarkdown(markdown).body;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
  }
  return markdownToHtml(body);
}
