/**
 * A stored page body → sanitised HTML, for the read-only views. Pure and CPU-bound: it runs on
 * the worker threads (the `page-html` job), never on the server's event loop.
 *
 * The Markdown is parsed by the server's one bounded parser (parseMarkdown: pathological nesting
 * and marker runs are read as text). Raw HTML in it (GitBook writes images as `<figure>`s) is
 * parsed by the HTML standard's parser (rehype-parse), each HTML node on its own, so a tag
 * opened in one inline node and closed in another is dropped rather than joined. Then
 * rehype-sanitize keeps only GitHub's allow-list of elements and attributes, with links limited
 * to http(s) and mailto and images to http(s), before anything is serialised.
 */
import type { ElementContent, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { visit } from 'unist-util-visit';
import rehypeParse from 'rehype-parse';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { isolateLiquidTags } from '../content/document-liquid';
import { FrontmatterError, readPageMarkdown } from '../content/markdown-document';
import { parseMarkdown } from '../content/parse-markdown';
import { liquidBlocks } from './liquid-blocks';

const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // GitBook's images are figures with captions.
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption'],
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
  },
};

const htmlFragment = unified().use(rehypeParse, { fragment: true });

/** Replaces each raw HTML node (remark-rehype's `raw`) by the elements it parses to. */
function parseRawHtml(root: HastRoot): void {
  visit(root, 'raw', (node, index, parent) => {
    if (!parent || index === undefined) return undefined;
    const parsed = htmlFragment.parse(node.value).children as ElementContent[];
    parent.children.splice(index, 1, ...parsed);
    return index + parsed.length;
  });
}

/** Points `href` / `src` of elements that came from raw HTML at their view address. */
function rewriteHtmlTargets(root: HastRoot, hrefs: HrefMap): void {
  visit(root, 'element', (node) => {
    for (const name of ['href', 'src'] as const) {
      const value = node.properties[name];
      if (typeof value === 'string' && Object.hasOwn(hrefs, value))
        node.properties[name] = hrefs[value];
    }
  });
}

const toHast = unified().use(remarkRehype, { allowDangerousHtml: true });
const sanitize = unified().use(rehypeSanitize, SCHEMA);
const stringify = unified().use(rehypeStringify);

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
  const mdast = parseMarkdown(isolateLiquidTags(markdown));
  liquidBlocks(mdast);
  rewriteTargets(mdast, hrefs);
  const hast = toHast.runSync(mdast) as HastRoot;
  parseRawHtml(hast);
  rewriteHtmlTargets(hast, hrefs);
  return stringify.stringify(sanitize.runSync(hast));
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
