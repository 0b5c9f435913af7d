/**
 * HTML → Markdown for content import (`source: html | website`), with the unified stack the
 * server already parses Markdown with: rehype-parse (parse5, the HTML standard's parsing
 * algorithm) → rehype-remark → remark-gfm + remark-stringify. It keeps a page's readable text and
 * its structure (headings, paragraphs, lists, links, images, code, quotes, tables) and drops what
 * a reader never sees (scripts, styles, forms, embedded objects).
 *
 * Imported pages are untrusted: nesting is bounded before parsing (see html-nesting-cap.ts),
 * script-like links and images are dropped, and the whole job runs on the CPU pool with its time
 * and heap budget.
 */
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Nodes as MdastNodes, Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { capHtmlNesting } from './html-nesting-cap';

export interface HtmlToMarkdownOptions {
  /** Address of the page: relative links and images are made absolute against it. */
  baseUrl?: string;
  /**
   * Keep only the page's main content (`website`): the `<main>` or `<article>` element when there
   * is one, without navigation, headers, footers, asides and forms.
   */
  mainContent?: boolean;
}

export interface ConvertedHtml {
  /** The document's `<title>`, or its first `<h1>`. */
  title?: string;
  markdown: string;
}

/** Elements whose content is never text a reader sees. */
const DROPPED = [
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
  'textarea',
];
/** Page chrome dropped in `mainContent` mode. */
const CHROME = ['nav', 'header', 'footer', 'aside', 'form', 'dialog'];

const parser = unified().use(rehypeParse);
const converter = unified()
  .use(rehypeRemark)
  // Unaligned table pipes: aligning them pads every row to the widest cell.
  .use(remarkGfm, { tablePipeAlign: false })
  .use(remarkStringify, {
    bullet: '-',
    emphasis: '*',
    strong: '*',
    fence: '`',
    fences: true,
    rule: '-',
    listItemIndent: 'one',
  });

type HastParent = HastRoot | Element;

/** The first element named one of `names`, in document order (iterative: depth is untrusted). */
function findElement(root: HastParent, names: readonly string[]): Element | undefined {
  const stack: HastContent[] = [...root.children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type !== 'element') continue;
    if (names.includes(node.tagName)) return node;
    for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i]!);
  }
  return undefined;
}

function removeElements(root: HastParent, names: readonly string[]): void {
  const parents: HastParent[] = [root];
  for (let parent = parents.pop(); parent; parent = parents.pop()) {
    const kept = parent.children.filter(
      (child) => child.type !== 'element' || !names.includes(child.tagName),
    );
    parent.children = kept as typeof parent.children;
    for (const child of kept) if (child.type === 'element') parents.push(child);
  }
}

/**
 * `<pre class="language-js"><code>`: hast-util-to-mdast reads the language from the `<code>`
 * only, so the `<pre>`'s is copied onto a `<code>` that has none.
 */
function moveCodeLanguages(root: HastParent): void {
  const stack: HastContent[] = [...root.children];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type !== 'element') continue;
    const code = node.children.find(
      (child): child is Element => child.type === 'element' && child.tagName === 'code',
    );
    const language = languageClasses(node);
    if (
      node.tagName === 'pre' &&
      code &&
      language.length > 0 &&
      languageClasses(code).length === 0
    ) {
      code.properties.className = [...classNames(code), ...language];
    }
    stack.push(...node.children);
  }
}

function classNames(element: Element): string[] {
  const value = element.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function languageClasses(element: Element): string[] {
  return classNames(element).filter((name) => /^(language|lang)-/.test(name));
}

function textOf(root: Element): string {
  let text = '';
  const stack: HastContent[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'text') text += node.value;
    else if (node.type === 'element') {
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i]!);
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** A link or image target made absolute, or undefined for one that would run script. */
function safeUrl(raw: string, baseUrl: string | undefined): string | undefined {
  const value = raw.trim();
  if (!value) return undefined;
  if (/^(javascript|vbscript|data):/i.test(value.replace(/[\s\0]/g, ''))) return undefined;
  if (value.startsWith('#') || !baseUrl) return value;
  try {
    return new URL(value, baseUrl).href;
  } catch {
    return value;
  }
}

/** The nodes that replace `node`: an unsafe or empty link becomes its text, an unsafe image nothing. */
function safeNodes(node: MdastContent, baseUrl: string | undefined): MdastContent[] {
  if (node.type === 'link') {
    const url = safeUrl(node.url, baseUrl);
    if (node.children.length === 0) return [];
    if (url === undefined) return node.children.flatMap((child) => safeNodes(child, baseUrl));
    node.url = url;
  } else if (node.type === 'image') {
    const url = safeUrl(node.url, baseUrl);
    if (url === undefined) return [];
    node.url = url;
  }
  return [node];
}

function sanitizeLinks(root: MdastRoot, baseUrl: string | undefined): void {
  const parents: MdastNodes[] = [root];
  for (let parent = parents.pop(); parent; parent = parents.pop()) {
    if (!('children' in parent)) continue;
    const kept = (parent.children as MdastContent[]).flatMap((child) => safeNodes(child, baseUrl));
    (parent as { children: MdastContent[] }).children = kept;
    parents.push(...kept.filter((child) => 'children' in child));
  }
}

/** Converts an HTML document (or fragment) to Markdown; see the module comment. */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): ConvertedHtml {
  const tree = parser.parse(capHtmlNesting(html));
  const titleElement = findElement(tree, ['title']);
  const docTitle = titleElement ? textOf(titleElement) : '';
  removeElements(tree, options.mainContent ? [...DROPPED, ...CHROME] : DROPPED);
  moveCodeLanguages(tree);
  let content: HastParent = findElement(tree, ['body']) ?? tree;
  if (options.mainContent) {
    content = findElement(content, ['main']) ?? findElement(content, ['article']) ?? content;
  }

  const mdast = converter.runSync({ type: 'root', children: [content] } as HastRoot) as MdastRoot;
  sanitizeLinks(mdast, options.baseUrl);
  const first = mdast.children[0];
  const firstHeading = first?.type === 'heading' && first.depth === 1;
  const h1 = findElement(content, ['h1']);
  const h1Text = h1 ? textOf(h1) : '';
  const title = (firstHeading ? h1Text : '') || docTitle || h1Text || undefined;
  if (!firstHeading && title) {
    mdast.children.unshift({
      type: 'heading',
      depth: 1,
      children: [{ type: 'text', value: title }],
    });
  }
  const markdown = mdast.children.length > 0 ? converter.stringify(mdast) : '';
  return { ...(title ? { title } : {}), markdown };
}
