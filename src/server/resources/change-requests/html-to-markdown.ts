/**
 * A small HTML → Markdown converter for content import (`source: html | website`). It keeps the
 * readable text of a page and its structure (headings, paragraphs, lists, links, images, code,
 * quotes, simple tables) and drops everything else (scripts, styles, forms, navigation chrome).
 *
 * Why hand-written rather than a package: imports need one page's main text, not a faithful
 * rendering; a forgiving tag scanner and a tiny tree are enough, where the usual choice (turndown)
 * needs a full DOM implementation (jsdom or domino) as well.
 */
import { decodeEntities } from '../../content/markdown-links';

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

interface ElementNode {
  kind: 'element';
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  parent: ElementNode | null;
}
interface TextNode {
  kind: 'text';
  text: string;
}
type Node = ElementNode | TextNode;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

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

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** Opening one of these closes an open element of the same family (HTML's implied end tags). */
const IMPLIED_END: Record<string, readonly string[]> = {
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
};
/** Elements that close an open `<p>` (a paragraph cannot hold blocks). */
const CLOSES_P = new Set([...BLOCK].filter((name) => name !== 'li' && !name.startsWith('t')));

const MORE_ENTITIES: Record<string, string> = {
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  times: '×',
  euro: '€',
  deg: '°',
};

function decode(value: string): string {
  return decodeEntities(
    value.replace(/&([a-z]+);/gi, (entity, name: string) => MORE_ENTITIES[name] ?? entity),
  );
}

/** Removes whole elements (with their content) and comments before parsing. */
function strip(html: string, names: readonly string[]): string {
  let result = html.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  for (const name of names) {
    result = result.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*?</${name}\\s*>`, 'gi'), '');
    // An unclosed one runs to the end of the document.
    result = result.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*$`, 'i'), '');
  }
  return result;
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of source.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    if (!(name in attrs)) {
      Object.defineProperty(attrs, name, {
        value: decode(match[2] ?? match[3] ?? match[4] ?? ''),
        enumerable: true,
        writable: true,
      });
    }
  }
  return attrs;
}

/** A forgiving parser: unknown closing tags are ignored and open elements close at the end. */
function parse(html: string): ElementNode {
  const root: ElementNode = {
    kind: 'element',
    name: '#root',
    attrs: {},
    children: [],
    parent: null,
  };
  let current = root;
  const openNames = () => {
    const names: string[] = [];
    for (let node: ElementNode | null = current; node; node = node.parent) names.push(node.name);
    return names;
  };
  const closeUpTo = (name: string) => {
    for (let node: ElementNode | null = current; node && node !== root; node = node.parent) {
      if (node.name === name) {
        current = node.parent ?? root;
        return;
      }
    }
  };
  const token =
    /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<!doctype[^>]*>|([^<]+)|</gi;
  for (const match of html.matchAll(token)) {
    const [whole, slash, rawName, rawAttrs, text] = match;
    if (text !== undefined || whole === '<') {
      current.children.push({ kind: 'text', text: decode(text ?? whole) });
      continue;
    }
    if (!rawName) continue;
    const name = rawName.toLowerCase();
    if (slash) {
      closeUpTo(name);
      continue;
    }
    const implied = IMPLIED_END[name];
    if (implied) {
      // Close an open sibling of the same family, but never past its own list or table.
      const stop = new Set(['ul', 'ol', 'dl', 'table', 'tbody', 'thead', 'tfoot', 'select']);
      for (let node: ElementNode | null = current; node && node !== root; node = node.parent) {
        if (stop.has(node.name)) break;
        if (implied.includes(node.name)) {
          current = node.parent ?? root;
          break;
        }
      }
    }
    if (CLOSES_P.has(name) && openNames().includes('p')) closeUpTo('p');
    const element: ElementNode = {
      kind: 'element',
      name,
      attrs: parseAttributes(rawAttrs ?? ''),
      children: [],
      parent: current,
    };
    current.children.push(element);
    if (!VOID.has(name) && !(rawAttrs ?? '').trimEnd().endsWith('/')) current = element;
  }
  return root;
}

function find(node: ElementNode, names: readonly string[]): ElementNode | undefined {
  for (const child of node.children) {
    if (child.kind !== 'element') continue;
    if (names.includes(child.name)) return child;
    const found = find(child, names);
    if (found) return found;
  }
  return undefined;
}

function textOf(node: Node): string {
  if (node.kind === 'text') return node.text;
  if (node.name === 'br') return '\n';
  return node.children.map(textOf).join('');
}

/** Markdown-significant characters in text are escaped so text stays text. */
function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]])/g, '\\$1');
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

class Renderer {
  constructor(private readonly baseUrl: string | undefined) {}

  private url(raw: string | undefined): string | undefined {
    const value = raw?.trim();
    if (!value) return undefined;
    if (/^\s*(javascript|vbscript|data):/i.test(value)) return undefined;
    if (value.startsWith('#') || !this.baseUrl) return value;
    try {
      return new URL(value, this.baseUrl).href;
    } catch {
      return value;
    }
  }

  inline(nodes: readonly Node[]): string {
    return nodes.map((node) => this.inlineNode(node)).join('');
  }

  private inlineNode(node: Node): string {
    if (node.kind === 'text') return escapeText(node.text.replace(/\s+/g, ' '));
    const inner = () => this.inline(node.children);
    const wrap = (mark: string) => {
      const text = inner();
      const trimmed = text.trim();
      if (!trimmed) return text;
      const lead = text.slice(0, text.length - text.trimStart().length);
      const trail = text.slice(text.trimEnd().length);
      return `${lead}${mark}${trimmed}${mark}${trail}`;
    };
    switch (node.name) {
      case 'br':
        return '\\\n';
      case 'strong':
      case 'b':
        return wrap('**');
      case 'em':
      case 'i':
      case 'cite':
        return wrap('*');
      case 'del':
      case 's':
      case 'strike':
        return wrap('~~');
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const text = textOf(node).replace(/\s+/g, ' ');
        return text.trim() ? codeSpan(text) : text;
      }
      case 'a': {
        const text = inner().trim();
        const href = this.url(node.attrs['href']);
        if (!href) return text;
        if (!text) return '';
        return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
      }
      case 'img': {
        const src = this.url(node.attrs['src']);
        if (!src) return '';
        const alt = escapeText((node.attrs['alt'] ?? '').replace(/\s+/g, ' ').trim());
        return `![${alt}](${src.replace(/[()\s]/g, encodeURIComponent)})`;
      }
      default:
        // A block inside inline content (a div in a link, say) still reads as inline text.
        return BLOCK.has(node.name) ? ` ${inner()} ` : inner();
    }
  }

  /** The Markdown blocks of a container's children. */
  blocks(node: ElementNode): string[] {
    const blocks: string[] = [];
    let run: Node[] = [];
    const flush = () => {
      const text = this.paragraph(run);
      if (text) blocks.push(text);
      run = [];
    };
    for (const child of node.children) {
      if (child.kind === 'element' && BLOCK.has(child.name)) {
        flush();
        blocks.push(...this.block(child));
      } else {
        run.push(child);
      }
    }
    flush();
    return blocks;
  }

  private paragraph(nodes: readonly Node[]): string {
    return this.inline(nodes)
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .join('\n')
      .trim()
      .replace(/\\$/, '');
  }

  private block(node: ElementNode): string[] {
    switch (node.name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const text = this.paragraph(node.children).replace(/\\\n/g, ' ').replace(/\n/g, ' ');
        return text ? [`${'#'.repeat(Number(node.name[1]))} ${text}`] : [];
      }
      case 'hr':
        return ['---'];
      case 'pre': {
        const code = find(node, ['code']);
        const className = `${node.attrs['class'] ?? ''} ${code?.attrs['class'] ?? ''}`;
        const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(className)?.[1] ?? '';
        const text = textOf(node).replace(/^\n/, '').replace(/\s+$/, '');
        const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
        const fence = '`'.repeat(longest + 1);
        return [`${fence}${language}\n${text}\n${fence}`];
      }
      case 'blockquote': {
        const inner = this.blocks(node).join('\n\n');
        return inner ? [inner.replace(/^/gm, '> ').replace(/^> $/gm, '>')] : [];
      }
      case 'ul':
      case 'ol':
        return this.list(node);
      case 'table':
        return this.table(node);
      case 'dt':
        return this.blocks(node).map((block) => `**${block}**`);
      default:
        return this.blocks(node);
    }
  }

  private list(node: ElementNode): string[] {
    const ordered = node.name === 'ol';
    let number = Number.parseInt(node.attrs['start'] ?? '1', 10);
    if (!Number.isFinite(number)) number = 1;
    const items: string[] = [];
    const indented = (text: string, indent: string) => text.replace(/\n(?=[^\n])/g, `\n${indent}`);
    for (const child of node.children) {
      if (child.kind === 'text' && !child.text.trim()) continue;
      const nestedList = child.kind === 'element' && (child.name === 'ul' || child.name === 'ol');
      if (nestedList && items.length > 0) {
        // A list directly inside a list (invalid, but common) belongs to the item before it.
        const previous = items.pop()!;
        const indent = ' '.repeat(/^(\d+\. |- )/.exec(previous)?.[0].length ?? 2);
        items.push(`${previous}\n${indent}${indented(this.list(child).join('\n'), indent)}`);
        continue;
      }
      // Anything else directly in a list is an item of its own.
      const item = child.kind === 'element' && child.name === 'li' ? child : wrapInItem(child);
      const marker = ordered ? `${number}. ` : '- ';
      number += 1;
      const body = this.blocks(item).join('\n\n');
      items.push(`${marker}${indented(body, ' '.repeat(marker.length))}`);
    }
    return items.length > 0 ? [items.join('\n')] : [];
  }

  private table(node: ElementNode): string[] {
    const rows: string[][] = [];
    const visit = (element: ElementNode) => {
      for (const child of element.children) {
        if (child.kind !== 'element') continue;
        if (child.name === 'tr') {
          rows.push(
            child.children
              .filter(
                (cell): cell is ElementNode =>
                  cell.kind === 'element' && (cell.name === 'td' || cell.name === 'th'),
              )
              .map((cell) =>
                this.blocks(cell).join(' ').replace(/\n/g, ' ').replace(/\|/g, '\\|').trim(),
              ),
          );
        } else if (child.name !== 'table') {
          visit(child);
        }
      }
    };
    visit(node);
    const width = Math.max(0, ...rows.map((row) => row.length));
    if (width === 0) return [];
    const line = (cells: readonly string[]) =>
      `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const [head, ...body] = rows;
    return [
      [line(head ?? []), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n'),
    ];
  }
}

function wrapInItem(child: Node): ElementNode {
  return { kind: 'element', name: 'li', attrs: {}, children: [child], parent: null };
}

/** Converts an HTML document (or fragment) to Markdown; see the module comment. */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): ConvertedHtml {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const docTitle = titleMatch
    ? decode(titleMatch[1] ?? '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  const root = parse(strip(html, options.mainContent ? [...DROPPED, ...CHROME] : DROPPED));
  let content: ElementNode = find(root, ['body']) ?? root;
  if (options.mainContent)
    content = find(content, ['main']) ?? find(content, ['article']) ?? content;

  const renderer = new Renderer(options.baseUrl);
  const blocks = renderer.blocks(content);
  const firstHeading = blocks[0]?.startsWith('# ') ? blocks[0] : undefined;
  const h1 = find(content, ['h1']);
  const h1Text = h1 ? textOf(h1).replace(/\s+/g, ' ').trim() : '';
  const title = (firstHeading ? h1Text : '') || docTitle || h1Text || undefined;
  if (!firstHeading && title) blocks.unshift(`# ${escapeText(title)}`);
  const markdown = blocks.join('\n\n');
  return { ...(title ? { title } : {}), markdown: markdown ? `${markdown}\n` : '' };
}
