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
import type { Root as MdastRoot } from 'mdast';
import { visit } from 'unist-util-visit';
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

/** Link and image targets (as written) → where they point in the view (see view-links.ts). */
export type HrefMap = Readonly<Record<string, string>>;

/** Points the tree's links, images and definitions whose target is in `hrefs` at the new one. */
function rewriteTargets(root: MdastRoot, hrefs: HrefMap): void {
  if (Object.keys(hrefs).length === 0) return;
  visit(root, (node) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
      const target = Object.hasOwn(hrefs, node.url) ? hrefs[node.url] : undefined;
      if (target !== undefined) node.url = target;
    }
  });
}

/** Sanitised HTML of Markdown as written (a comment, a description). */
export function markdownToHtml(markdown: string, hrefs: HrefMap = {}): string {
  const mdast = parseMarkdown(markdown);
  rewriteTargets(mdast, hrefs);
  const hast = toHtml.runSync(mdast) as HastRoot;
  return toHtml.stringify(hast);
}

/**
 * Sanitised HTML of a stored page body: its frontmatter and leading `# Title` are page fields,
 * shown by the view around it; a body whose frontmatter cannot be read is rendered whole.
 */
export function pageBodyToHtml(markdown: string, hrefs: HrefMap = {}): string {
  let body = markdown;
  try {
    body = readPageMarkdown(markdown).body;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
  }
  return markdownToHtml(body, hrefs);
}
