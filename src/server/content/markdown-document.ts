/**
 * Markdown (as Git Sync writes it) → the published GitBook JSON document (`JSONDocument`), and the
 * page metadata a Markdown page carries (frontmatter and leading `# Title`).
 *
 * Mapped (published shape in @gitbook/api `components.schemas.Document*`):
 * - paragraph; headings `#`/`##` → heading-1, `###` → heading-2, `####` → heading-3 (Git Sync writes
 *   editor H1–H3 one level down; `#####`+ become bold paragraphs, as Git Sync does), the custom
 *   anchor `<a … id="x"></a>` → `data.id`;
 * - marks bold, italic, code, strikethrough; links (`data.ref`: `/pages/<id>` → page ref, `/files/<id>`
 *   → file ref, `#x` → anchor ref, anything else → url ref, or what `resolveRef` says); hard breaks;
 *   inline images (`![]()` inside text, inline `<img>`);
 * - list-unordered / list-ordered (`data.start`) / list-tasks (`data.checked` on items), blockquote,
 *   divider, code (`data.syntax`, and `{% code title overflow lineNumbers expandable fullWidth %}`),
 *   GFM table (grid view, one text column per Markdown column, each cell a fragment), images/image
 *   (paragraphs of only images, `<figure>`/`<img>`/`<picture>` HTML with caption, dark variant,
 *   align/frame/full-width wrappers), `{% hint %}`, `{% tabs %}/{% tab %}`, `{% embed %}`,
 *   `{% content-ref %}`, `{% file %}` (only when `resolveRef` yields a file ref), `<details>` →
 *   expandable, `$$…$$` paragraphs → math.
 *
 * Not mapped (content kept as plain blocks where it has text): stepper, columns, updates, `if`,
 * prompt, OpenAPI and integration blocks, `{% include %}` / reusable content, drawings, HTML/cards
 * tables (their text becomes a paragraph), inline HTML formatting (`<mark>`, icons, expressions,
 * emoji spans, `<a href>` in text), inline math, footnotes (kept as text), keyboard/super/subscript
 * marks, colours. Blocks a container may not hold in the published schema (e.g. an image in a list
 * item, code in a hint) are lowered to paragraphs rather than dropped. No `key`s are generated.
 */
import type {
  ContentRef,
  ContentRefFile,
  ContentRefURL,
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockExpandable,
  DocumentBlockHint,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentBlockParagraph,
  DocumentBlockQuote,
  DocumentBlockTable,
  DocumentBlockTabsItem,
  DocumentFragment,
  DocumentInline,
  DocumentInlineImage,
  DocumentText,
  DocumentTextMark,
  JSONDocument,
} from '@gitbook/api';
import matter from 'gray-matter';
import type { Html, Nodes, PhrasingContent, RootContent, TableCell } from 'mdast';
import { MAX_TABLE_COLUMNS } from './bound-markdown';
import {
  elementContent,
  firstTag,
  imageUnits,
  someTag,
  tagsAsSpaces,
  withoutHtmlComments,
} from './html-scan';
import {
  classifyHref,
  decodeEntities,
  nodeText,
  parseMarkdown,
  srcsetUrls,
} from './markdown-links';

// ---------------------------------------------------------------------------------------------
// Page metadata
// ---------------------------------------------------------------------------------------------

/** Frontmatter or page Markdown the API must refuse; its message is fit for a 400. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the page Markdown, when known. */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/** Page fields Git Sync frontmatter sets (only keys present in the frontmatter are set). */
export interface PageMarkdownFields {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Record<string, unknown>;
  /** Asset path relative to the page, or a URL (Git Sync's `cover:`). */
  cover?: string;
  coverY?: number;
  coverHeight?: number;
}

export interface PageMarkdown {
  /** Frontmatter `title`, else the leading `# Heading`'s text. */
  title?: string;
  fields: PageMarkdownFields;
  /** Markdown after the frontmatter and the leading `# Heading` (which is the title slot). */
  body: string;
  /** Every frontmatter key (a fresh copy, JSON-safe), so unknown keys can be preserved. */
  frontmatter: Record<string, unknown>;
}

const STRING_FIELDS = ['description', 'icon', 'emoji'] as const;
const BOOLEAN_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
const NUMBER_FIELDS = ['coverY', 'coverHeight'] as const;
/** A frontmatter with more values than this is refused: YAML aliases can make tiny input huge. */
const FRONTMATTER_NODE_BUDGET = 10_000;
const FRONTMATTER_MAX_DEPTH = 32;

/**
 * Reads a Markdown page: its YAML frontmatter and its leading `# Heading`. The title rule follows
 * the published API ("frontmatter or leading heading, which take precedence, matching Git Sync").
 * Throws FrontmatterError for invalid YAML, non-YAML frontmatter (`---js` would be eval'd by
 * gray-matter) and fields of the wrong type.
 */
export function readPageMarkdown(markdown: string): PageMarkdown {
  const source = markdown.replace(/^\uFEFF/, '');
  const { data, content } = splitFrontmatter(source);
  const fields = readFields(data);

  let title: string | undefined;
  const rawTitle = data.title;
  if (typeof rawTitle === 'string' || typeof rawTitle === 'number') {
    title = String(rawTitle).trim() || undefined;
  } else if (rawTitle !== undefined && rawTitle !== null) {
    throw new FrontmatterError('frontmatter field "title" must be a string');
  }

  const { heading, body } = splitLeadingHeading(content);
  return { title: title ?? heading, fields, body, frontmatter: data };
}

function splitFrontmatter(source: string): { data: Record<string, unknown>; content: string } {
  const firstLine = /^---([^\r\n]*)\r?\n/.exec(source);
  // Only a closed block is frontmatter; otherwise a leading `---` is a thematic break.
  if (
    !firstLine ||
    firstLine[1]?.startsWith('-') ||
    !/\r?\n---/.test(source.slice(firstLine[0].length - 1))
  ) {
    return { data: {}, content: source };
  }
  const language = (firstLine[1] ?? '').trim().toLowerCase();
  if (language !== '' && language !== 'yaml' && language !== 'yml') {
    throw new FrontmatterError(`frontmatter language "${language}" is not supported; use YAML`, 1);
  }

  let parsed: { data: unknown; content: string };
  try {
    // A fresh options object every call: gray-matter caches (and shares the parsed object of) calls
    // made without options. The non-YAML engines are replaced so nothing can reach `eval`.
    parsed = matter(source, {
      language: 'yaml',
      excerpt: false,
      engines: {
        javascript: refuseEngine,
        js: refuseEngine,
        coffee: refuseEngine,
        json: refuseEngine,
      },
    });
  } catch (error) {
    throw yamlError(error);
  }
  const data = parsed.data;
  if (data === null || data === undefined) return { data: {}, content: parsed.content };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontmatterError('frontmatter must be a YAML mapping of keys to values', 2);
  }
  return {
    data: plainCopy(data, { nodes: 0 }, 0) as Record<string, unknown>,
    content: parsed.content,
  };
}

function refuseEngine(): object {
  throw new FrontmatterError('frontmatter must be YAML');
}

function yamlError(error: unknown): FrontmatterError {
  if (error instanceof FrontmatterError) return error;
  const yaml = error as {
    name?: string;
    reason?: string;
    mark?: { line?: number; column?: number };
    message?: string;
  };
  if (yaml.name === 'YAMLException') {
    // gray-matter hands js-yaml the text right after the opening `---` (its newline included), so
    // js-yaml's 0-based line is the page's 1-based line minus one.
    const line = typeof yaml.mark?.line === 'number' ? yaml.mark.line + 1 : undefined;
    const where =
      line !== undefined ? ` at line ${line}, column ${(yaml.mark?.column ?? 0) + 1}` : '';
    return new FrontmatterError(
      `invalid YAML frontmatter: ${yaml.reason ?? 'syntax error'}${where}`,
      line,
    );
  }
  return new FrontmatterError(`invalid frontmatter: ${yaml.message ?? String(error)}`);
}

/** A JSON-safe deep copy (dates → ISO strings) that refuses alias bombs and deep nesting. */
function plainCopy(value: unknown, budget: { nodes: number }, depth: number): unknown {
  budget.nodes += 1;
  if (budget.nodes > FRONTMATTER_NODE_BUDGET || depth > FRONTMATTER_MAX_DEPTH) {
    throw new FrontmatterError('frontmatter is too large or too deeply nested');
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, budget, depth + 1));
  if (typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own data only: a `__proto__` key must not reach an object's prototype.
      Object.defineProperty(copy, key, {
        value: plainCopy(item, budget, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return null;
}

function readFields(data: Record<string, unknown>): PageMarkdownFields {
  const fields: PageMarkdownFields = {};
  for (const name of STRING_FIELDS) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    // YAML reads `emoji: 2728` as a number; the field is a string either way.
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new FrontmatterError(`frontmatter field "${name}" must be a string`);
    }
    fields[name] = String(value);
  }
  for (const name of BOOLEAN_FIELDS) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean')
      throw new FrontmatterError(`frontmatter field "${name}" must be true or false`);
    fields[name] = value;
  }
  for (const name of NUMBER_FIELDS) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number')
      throw new FrontmatterError(`frontmatter field "${name}" must be a number`);
    fields[name] = value;
  }
  if (data.layout !== undefined && data.layout !== null) {
    if (typeof data.layout !== 'object' || Array.isArray(data.layout)) {
      throw new FrontmatterError('frontmatter field "layout" must be a mapping');
    }
    fields.layout = data.layout as Record<string, unknown>;
  }
  if (data.cover !== undefined && data.cover !== null) {
    if (typeof data.cover !== 'string')
      throw new FrontmatterError('frontmatter field "cover" must be a path or URL');
    fields.cover = data.cover;
  }
  return fields;
}

/**
 * The title heading is looked for in at most this many characters of the page: an ATX heading is
 * one line and a setext heading a paragraph and its underline, so only a heading longer than this
 * (read as text then) is missed, and a huge first block is never parsed just to find the title.
 */
export const TITLE_BLOCK_MAX_LENGTH = 16_384;

/** The leading `# Heading` is the page title slot in Git Sync files; the body follows it. */
function splitLeadingHeading(content: string): { heading?: string; body: string } {
  const first = parseMarkdown(titleBlock(content)).children[0];
  if (!first || first.type !== 'heading' || first.depth !== 1) return { body: content };
  const end = first.position?.end.offset;
  if (end === undefined) return { body: content };
  const heading = nodeText(first).replace(/\s+/g, ' ').trim();
  return {
    heading: heading || undefined,
    body: content.slice(end).replace(/^[ \t]*\r?\n(?:[ \t]*\r?\n)*/, ''),
  };
}

/**
 * Only the first block can be the title, and it ends at the first blank line after some text:
 * parsing that prefix alone gives the same answer at a fraction of the cost on long pages. It is
 * cut to whole lines within TITLE_BLOCK_MAX_LENGTH.
 */
function titleBlock(content: string): string {
  const prefix = content.slice(0, TITLE_BLOCK_MAX_LENGTH + 1);
  const block = /^\s*\S[^\n]*(?:\n(?![ \t]*\r?\n)[^\n]*)*/.exec(prefix)?.[0] ?? '';
  if (block.length <= TITLE_BLOCK_MAX_LENGTH) return block;
  const lastNewline = block.lastIndexOf('\n');
  return lastNewline < 0 ? '' : block.slice(0, lastNewline);
}

// ---------------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------------

/** Where a reference occurs, for resolvers that map Git paths to page/file ids. */
export type RefUsage = 'link' | 'image' | 'content-ref' | 'file';

export interface MarkdownToDocumentOptions {
  /**
   * Maps a link/image target to a content ref (e.g. `../setup.md` → `{kind:'page', page}` using
   * the page tree). Return undefined to fall back to the default mapping.
   */
  resolveRef?: (href: string, usage: RefUsage) => ContentRef | undefined;
}

type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code';
const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

interface Leaf {
  kind: 'leaf';
  text: string;
  marks: readonly MarkType[];
}
type Piece = Leaf | DocumentInline;

interface Context {
  options: MarkdownToDocumentOptions;
  /** The (tag-isolated) Markdown that was parsed, to read liquid tags from their source. */
  source: string;
  definitions: Map<string, { url: string; title?: string | null }>;
  tables: number;
  /** Current container / inline nesting, bounded so hostile input cannot overflow the stack. */
  depth: number;
  inlineDepth: number;
  /** liquidTagOf results by node: closing-tag scans would otherwise re-read the same nodes. */
  tags: WeakMap<RootContent, LiquidTag | null>;
}

/** Deeper containers (or inline formatting) than this keep only their text. */
export const MAX_DOCUMENT_NESTING = 48;
const MAX_NESTING = MAX_DOCUMENT_NESTING;

/**
 * Builds the published JSON document of a Markdown body (pass `readPageMarkdown(md).body`: the
 * frontmatter and title heading are not part of the document). Never throws on malformed Markdown.
 */
export function markdownToDocument(
  markdown: string,
  options: MarkdownToDocumentOptions = {},
): JSONDocument {
  const source = isolateLiquidTags(markdown.replace(/^\uFEFF/, ''));
  const root = parseMarkdown(source);
  const ctx: Context = {
    options,
    source,
    definitions: new Map(),
    tables: 0,
    depth: 0,
    inlineDepth: 0,
    tags: new WeakMap(),
  };
  collectDefinitions(root, ctx);
  const nodes = fit<JSONDocument['nodes'][number]>(blocksOf(root.children, ctx), TOP_LEVEL, ctx);
  return { object: 'document', data: {}, nodes };
}

/** Default mapping of a link target to a ContentRef (see the module comment). */
export function defaultContentRef(href: string): ContentRef {
  const target = classifyHref(href);
  if (target.kind === 'anchor' && target.anchor !== undefined)
    return { kind: 'anchor', anchor: target.anchor };
  if (target.kind === 'page' && target.pageId) {
    return target.anchor
      ? { kind: 'anchor', anchor: target.anchor, page: target.pageId }
      : { kind: 'page', page: target.pageId };
  }
  if (target.kind === 'file' && target.fileId) return { kind: 'file', file: target.fileId };
  return { kind: 'url', url: href };
}

function refOf(href: string, usage: RefUsage, ctx: Context): ContentRef {
  return ctx.options.resolveRef?.(href, usage) ?? defaultContentRef(href);
}

function imageRefOf(href: string, ctx: Context): ContentRefURL | ContentRefFile {
  const ref = refOf(href, 'image', ctx);
  return ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: href };
}

// --- liquid tags -----------------------------------------------------------------------------

/**
 * Git Sync writes `{% hint %}` and friends on their own lines with no blank line around them, so
 * CommonMark would fold them into the neighbouring paragraph. Surrounding each tag line (outside
 * fenced code) with blank lines makes every tag its own paragraph.
 */
function isolateLiquidTags(markdown: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (
        fenceMatch?.[1]?.[0] === fence.char &&
        fenceMatch[1].length >= fence.length &&
        /^\s*[`~]+\s*$/.test(line)
      ) {
        fence = null;
      }
      out.push(line);
    } else if (fenceMatch?.[1]) {
      fence = { char: fenceMatch[1][0] ?? '`', length: fenceMatch[1].length };
      out.push(line);
    } else if (/^\s*\{%.*%\}\s*$/.test(line)) {
      out.push('', line, '');
    } else {
      out.push(line);
    }
  }
  return out.join('\n');
}

interface LiquidTag {
  name: string;
  attributes: Record<string, string>;
  /** The first bare quoted argument (`{% include "x.md" %}`). */
  argument?: string;
}

function liquidTagOf(node: RootContent, ctx: Context): LiquidTag | undefined {
  const cached = ctx.tags.get(node);
  if (cached !== undefined) return cached ?? undefined;
  const tag = readLiquidTag(node, ctx);
  ctx.tags.set(node, tag ?? null);
  return tag;
}

function readLiquidTag(node: RootContent, ctx: Context): LiquidTag | undefined {
  if (node.type !== 'paragraph') return undefined;
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  if (from === undefined || to === undefined) return undefined;
  // The tag's name, then its arguments up to `%}` (sliced, not matched: a lazy `[\s\S]*?\s*%\}`
  // retries the whitespace run at each of its characters).
  const source = ctx.source.slice(from, to).trim();
  const head = /^\{%\s*([a-z@][\w@/-]*)/i.exec(source);
  if (!head?.[1] || !source.endsWith('%}') || source.length < head[0].length + 2) return undefined;
  const attributes: Record<string, string> = {};
  const rest = source.slice(head[0].length, -2).trim();
  // The lookbehind starts each name at a word start: otherwise every suffix of a long word is tried.
  for (const attribute of rest.matchAll(/(?<![\w-])([\w-]+)\s*=\s*"([^"]*)"/g)) {
    if (attribute[1]) attributes[attribute[1]] = attribute[2] ?? '';
  }
  const argument = /^"([^"]*)"/.exec(rest)?.[1];
  return {
    name: head[1].toLowerCase(),
    attributes,
    ...(argument !== undefined ? { argument } : {}),
  };
}

/**
 * For each liquid tag in `children`, the index of the tag closing it (`{% endname %}`), honouring
 * nesting of the same name. One pass with a stack per tag name: scanning ahead from every opening
 * tag would be quadratic in a page of unclosed tags.
 */
function liquidClosings(children: readonly RootContent[], ctx: Context): Map<number, number> {
  const closings = new Map<number, number>();
  const opened = new Map<string, number[]>();
  children.forEach((child, i) => {
    const tag = liquidTagOf(child, ctx);
    if (!tag) return;
    if (tag.name.startsWith('end')) {
      const open = opened.get(tag.name.slice(3))?.pop();
      if (open !== undefined) closings.set(open, i);
    } else {
      const stack = opened.get(tag.name);
      if (stack) stack.push(i);
      else opened.set(tag.name, [i]);
    }
  });
  return closings;
}

/**
 * For each `<details>` HTML child, the index of the child holding its `</details>`: the first
 * later child where the `<details>`/`</details>` balance counted from it drops below zero, i.e.
 * the next child whose running balance is lower — found for all at once with a monotonic stack.
 */
function detailsClosings(children: readonly RootContent[]): Map<number, number> {
  const closings = new Map<number, number>();
  const waiting: Array<{ index: number; balance: number }> = [];
  let balance = 0;
  children.forEach((child, i) => {
    if (child.type === 'html') {
      balance += (child.value.match(/<details[\s>]/gi) ?? []).length;
      balance -= (child.value.match(/<\/details\s*>/gi) ?? []).length;
      while (waiting.length > 0 && waiting[waiting.length - 1]!.balance > balance)
        closings.set(waiting.pop()!.index, i);
    }
    waiting.push({ index: i, balance });
  });
  return closings;
}

// --- blocks ----------------------------------------------------------------------------------

function blocksOf(children: readonly RootContent[], ctx: Context): DocumentBlock[] {
  if (ctx.depth >= MAX_NESTING) {
    const text = children
      .map((child) => nodeText(child))
      .join(' ')
      .trim();
    return text ? [paragraph([leaf(text)])] : [];
  }
  ctx.depth += 1;
  try {
    return blocksAt(children, ctx);
  } finally {
    ctx.depth -= 1;
  }
}

function blocksAt(children: readonly RootContent[], ctx: Context): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const tagClosings = liquidClosings(children, ctx);
  let detailClosings: Map<number, number> | undefined;
  for (let i = 0; i < children.length; i += 1) {
    const node = children[i];
    if (!node) continue;
    const tag = liquidTagOf(node, ctx);
    if (tag) {
      if (tag.name.startsWith('end')) continue; // a stray closing tag
      const end = tagClosings.get(i) ?? -1;
      const inner = end >= 0 ? children.slice(i + 1, end) : [];
      append(blocks, liquidBlock(tag, inner, ctx));
      if (end >= 0) i = end;
      continue;
    }
    if (node.type === 'html' && /^\s*<details[\s>]/i.test(node.value)) {
      detailClosings ??= detailsClosings(children);
      const end = detailClosings.get(i) ?? -1;
      if (end >= 0) {
        blocks.push(expandable(node, children.slice(i + 1, end), ctx));
        i = end;
        continue;
      }
    }
    append(blocks, blockOf(node, ctx));
  }
  return blocks;
}

function liquidBlock(tag: LiquidTag, inner: readonly RootContent[], ctx: Context): DocumentBlock[] {
  const { attributes } = tag;
  switch (tag.name) {
    case 'hint': {
      const style = attributes.style;
      const hint: DocumentBlockHint = {
        object: 'block',
        type: 'hint',
        data: {
          style: style === 'warning' || style === 'danger' || style === 'success' ? style : 'info',
          ...(attributes.icon ? { icon: attributes.icon } : {}),
        },
        nodes: nonEmpty(
          fit<DocumentBlockHint['nodes'][number]>(blocksOf(inner, ctx), HINT_CHILDREN, ctx),
        ),
      };
      return [hint];
    }
    case 'code': {
      const blocks = blocksOf(inner, ctx);
      const code = blocks.find((block): block is DocumentBlockCode => block.type === 'code');
      if (code) {
        if (attributes.title) code.data.title = attributes.title;
        if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll')
          code.data.overflow = attributes.overflow;
        if (attributes.lineNumbers !== undefined)
          code.data.lineNumbers = attributes.lineNumbers === 'true';
        if (attributes.expandable !== undefined)
          code.data.expandable = attributes.expandable === 'true';
        if (attributes.fullWidth !== undefined)
          code.data.fullWidth = attributes.fullWidth === 'true';
      }
      return blocks;
    }
    case 'tabs': {
      const items = blocksOf(inner, ctx).filter(
        (block): block is DocumentBlockTabsItem => block.type === 'tabs-item',
      );
      return items.length > 0 ? [{ object: 'block', type: 'tabs', data: {}, nodes: items }] : [];
    }
    case 'tab': {
      const item: DocumentBlockTabsItem = {
        object: 'block',
        type: 'tabs-item',
        data: {
          ...(attributes.title !== undefined ? { title: attributes.title } : {}),
          ...(attributes.icon ? { icon: attributes.icon } : {}),
        },
        nodes: nonEmpty(
          fit<DocumentBlockTabsItem['nodes'][number]>(blocksOf(inner, ctx), TAB_CHILDREN, ctx),
        ),
      };
      return [item];
    }
    case 'embed': {
      const url = attributes.url;
      const caption = blocksOf(inner, ctx);
      return url
        ? [{ object: 'block', type: 'embed', data: { url }, isVoid: true }, ...caption]
        : caption;
    }
    case 'content-ref': {
      const url = attributes.url;
      return url
        ? [
            {
              object: 'block',
              type: 'content-ref',
              data: { ref: refOf(url, 'content-ref', ctx) },
              isVoid: true,
            },
          ]
        : [];
    }
    case 'file': {
      const src = attributes.src;
      const caption = blocksOf(inner, ctx);
      if (!src) return caption;
      const ref = refOf(src, 'file', ctx);
      if (ref.kind === 'file')
        return [{ object: 'block', type: 'file', data: { ref }, isVoid: true }, ...caption];
      const name = decodeURIComponentSafe(src.split('/').pop() ?? src);
      return [paragraph([linkInline(ref, [leaf(name)])]), ...caption];
    }
    default:
      // Unknown or unmapped tags (stepper, columns, include, …): keep what they contain.
      return blocksOf(inner, ctx);
  }
}

function expandable(
  open: Html,
  inner: readonly RootContent[],
  ctx: Context,
): DocumentBlockExpandable {
  const children = [...inner];
  let title = '';
  const inOpen = elementContent(open.value, 'summary');
  if (inOpen !== undefined) title = htmlText(inOpen);
  else {
    const at = children.findIndex(
      (child) => child.type === 'html' && /<summary/i.test(child.value),
    );
    const summary = children[at];
    if (summary?.type === 'html') {
      title = htmlText(elementContent(summary.value, 'summary') ?? '');
      children.splice(at, 1);
    }
  }

  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: someTag(open.value, 'details', /\sopen[\s>=]/i) ? { defaultExpanded: true } : {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph([leaf(title)])],
      },
      {
        object: 'fragment',
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: nonEmpty(fit<BodyNode>(blocksOf(children, ctx), EXPANDABLE_CHILDREN, ctx)),
      },
    ],
  };
}

function blockOf(node: RootContent, ctx: Context): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph':
      return paragraphBlocks(node.children, ctx);
    case 'heading': {
      if (node.depth >= 5) return [paragraph(phrasing(node.children, ['bold'], ctx))];
      const type = node.depth <= 2 ? 'heading-1' : node.depth === 3 ? 'heading-2' : 'heading-3';
      const id = headingId(node.children);
      return [
        {
          object: 'block',
          type,
          data: id ? { id } : {},
          // Trimmed: the dropped `<a id>` anchor leaves the space that preceded it.
          nodes: normalize(trimPieces(phrasing(node.children, [], ctx))),
        },
      ];
    }
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'blockquote': {
      const quote: DocumentBlockQuote = {
        object: 'block',
        type: 'blockquote',
        data: {},
        nodes: nonEmpty(
          fit<DocumentBlockQuote['nodes'][number]>(
            blocksOf(node.children, ctx),
            QUOTE_CHILDREN,
            ctx,
          ),
        ),
      };
      return [quote];
    }
    case 'code':
      return [
        {
          object: 'block',
          type: 'code',
          data: node.lang ? { syntax: node.lang } : {},
          nodes: node.value.split('\n').map((line) => ({
            object: 'block' as const,
            type: 'code-line' as const,
            data: {},
            nodes: [textNode([{ kind: 'leaf', text: line, marks: [] }])],
          })),
        },
      ];
    case 'list': {
      const tasks =
        !node.ordered && node.children.some((item) => typeof item.checked === 'boolean');
      const items: DocumentBlockListItem[] = node.children.map((item) => ({
        object: 'block',
        type: 'list-item',
        data: tasks ? { checked: item.checked === true } : {},
        nodes: nonEmpty(
          fit<DocumentBlockListItem['nodes'][number]>(
            blocksOf(item.children, ctx),
            LIST_ITEM_CHILDREN,
            ctx,
          ),
        ),
      }));
      if (node.ordered) {
        return [
          {
            object: 'block',
            type: 'list-ordered',
            data: typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {},
            nodes: items,
          },
        ];
      }
      return [
        { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', data: {}, nodes: items },
      ];
    }
    case 'table':
      return [
        table(
          node.children.map((row) => row.children),
          node.align ?? [],
          ctx,
        ),
      ];
    case 'html':
      return htmlBlocks(node.value, ctx);
    case 'footnoteDefinition':
      return blocksOf(node.children, ctx);
    case 'definition':
      return [];
    default:
      // Phrasing content at block level does not occur in remark output; keep its text if it does.
      return 'children' in node || 'value' in node ? [paragraph([leaf(nodeText(node))])] : [];
  }
}

/** A paragraph; one of only images becomes an `images` block; `$$…$$` becomes math. */
function paragraphBlocks(children: PhrasingContent[], ctx: Context): DocumentBlock[] {
  const meaningful = children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === '') && child.type !== 'break',
  );
  const images = meaningful.filter(
    (child) => child.type === 'image' || child.type === 'imageReference',
  );
  if (meaningful.length > 0 && images.length === meaningful.length) {
    const nodes: DocumentBlockImage[] = [];
    for (const child of images) {
      const target =
        child.type === 'image' ? child.url : ctx.definitions.get(child.identifier)?.url;
      if (target !== undefined)
        nodes.push(imageBlock(target, child.alt ?? undefined, undefined, undefined, ctx));
    }
    if (nodes.length > 0)
      return [{ object: 'block', type: 'images', data: {}, nodes, isVoid: false }];
  }
  const only = children.length === 1 ? children[0] : undefined;
  if (only?.type === 'text') {
    const math = /^\$\$([\s\S]+)\$\$$/.exec(only.value.trim());
    if (math?.[1]?.trim())
      return [{ object: 'block', type: 'math', data: { formula: math[1].trim() }, isVoid: true }];
  }
  return [paragraph(phrasing(children, [], ctx))];
}

function imageBlock(
  src: string,
  alt: string | undefined,
  caption: string | undefined,
  darkSrc: string | undefined,
  ctx: Context,
): DocumentBlockImage {
  return {
    object: 'block',
    type: 'image',
    isVoid: true,
    data: {
      ref: imageRefOf(src, ctx),
      ...(darkSrc ? { refDark: imageRefOf(darkSrc, ctx) } : {}),
      ...(alt ? { alt } : {}),
    },
    fragments: caption
      ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([leaf(caption)])] }]
      : [],
  };
}

/** GFM table → grid table: one text column per Markdown column; each cell is a fragment. */
function table(
  rows: TableCell[][],
  align: ReadonlyArray<string | null>,
  ctx: Context,
): DocumentBlockTable {
  ctx.tables += 1;
  const prefix = `t${ctx.tables}`;
  const [header = [], ...body] = rows;
  let widest = header.length;
  for (const row of body) widest = Math.max(widest, row.length);
  const width = Math.min(widest, MAX_TABLE_COLUMNS);
  const columns = Array.from({ length: width }, (_, i) => `${prefix}c${i + 1}`);
  const definition: DocumentBlockTable['data']['definition'] = {};
  columns.forEach((id, i) => {
    const alignment = align[i];
    const cell = header[i];
    definition[id] = {
      id,
      title: cell ? nodeText(cell).trim() : '',
      type: 'text',
      textAlignment: alignment === 'center' || alignment === 'right' ? alignment : 'left',
    };
  });
  const records: DocumentBlockTable['data']['records'] = {};
  const fragments: DocumentFragment[] = [];
  // Short rows are padded with empty cells while that at most doubles the cell count: a wide
  // header over thousands of one-cell rows must not multiply the document.
  let padding = width;
  for (const row of body) padding += Math.min(row.length, width);
  body.forEach((row, r) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      if (c >= row.length && padding-- <= 0) return;
      const fragment = `${prefix}r${r + 1}c${c + 1}`;
      fragments.push({
        object: 'fragment',
        fragment,
        nodes: [paragraph(cellPieces(row, c, c === width - 1, ctx))],
      });
      values[column] = fragment;
    });
    // Zero-padded so the renderer's string sort keeps Markdown row order past 9 rows.
    records[`${prefix}r${r + 1}`] = { orderIndex: String(r).padStart(6, '0'), values };
  });
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
    fragments,
  };
}

/** A cell's inline content; the last column also keeps, as text, the cells beyond the table's width. */
function cellPieces(row: readonly TableCell[], c: number, last: boolean, ctx: Context): Piece[] {
  const cell = row[c];
  const pieces = cell ? phrasing(cell.children, [], ctx) : [];
  if (last) {
    for (let extra = c + 1; extra < row.length; extra++) {
      pieces.push(leaf(' | '));
      append(pieces, phrasing(row[extra]!.children, [], ctx));
    }
  }
  return pieces;
}

// --- HTML ------------------------------------------------------------------------------------

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i').exec(
    tag,
  );
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

/** Text of an HTML fragment: tags and comments removed, entities decoded, whitespace collapsed. */
function htmlText(html: string): string {
  return decodeEntities(tagsAsSpaces(withoutHtmlComments(html)))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Git Sync's `<figure>`/`<img>`/`<picture>` images become an images block; other HTML keeps its text. */
function htmlBlocks(html: string, ctx: Context): DocumentBlock[] {
  const withoutComments = withoutHtmlComments(html);
  const images: DocumentBlockImage[] = [];
  if (!/<table[\s>]/i.test(withoutComments)) {
    // Each <figure> (or bare <img>/<picture>) is one image; a figcaption belongs to its figure.
    for (const unit of imageUnits(withoutComments)) {
      const img = firstTag(unit, 'img');
      const src = img ? attribute(img, 'src') : undefined;
      if (!img || !src) continue;
      const dark = firstTag(unit, 'source');
      const darkSrc =
        dark && /prefers-color-scheme:\s*dark/i.test(dark)
          ? srcsetUrls(attribute(dark, 'srcset') ?? '')[0]
          : undefined;
      const caption = htmlText(elementContent(unit, 'figcaption') ?? '');
      images.push(
        imageBlock(src, attribute(img, 'alt') || undefined, caption || undefined, darkSrc, ctx),
      );
    }
  }
  if (images.length > 0) {
    const align = attribute(withoutComments, 'align');
    const data: DocumentBlockImages['data'] = {};
    if (align === 'left' || align === 'right' || align === 'center') data.align = align;
    if (attribute(withoutComments, 'data-with-frame') === 'true') data.withFrame = true;
    if (attribute(withoutComments, 'data-full-width') === 'true') data.fullWidth = true;
    return [{ object: 'block', type: 'images', data, nodes: images, isVoid: false }];
  }
  const text = htmlText(withoutComments);
  return text ? [paragraph([leaf(text)])] : [];
}

function headingId(children: readonly PhrasingContent[]): string | undefined {
  for (const child of children) {
    if (child.type !== 'html') continue;
    const id = attribute(child.value, 'id');
    if (id && /^[-a-z0-9.+_]+$/.test(id)) return id;
  }
  return undefined;
}

// --- inline content --------------------------------------------------------------------------

function phrasing(
  nodes: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: Context,
): Piece[] {
  if (ctx.inlineDepth >= MAX_NESTING) {
    return [{ kind: 'leaf', text: nodes.map((node) => nodeText(node)).join(''), marks }];
  }
  ctx.inlineDepth += 1;
  try {
    return phrasingAt(nodes, marks, ctx);
  } finally {
    ctx.inlineDepth -= 1;
  }
}

function phrasingAt(
  nodes: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: Context,
): Piece[] {
  const pieces: Piece[] = [];
  const withMark = (mark: MarkType) => (marks.includes(mark) ? marks : [...marks, mark]);
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        // A soft line break renders as whitespace; hard breaks are `break` nodes.
        pieces.push({ kind: 'leaf', text: softBreaksAsSpaces(node.value), marks });
        break;
      case 'strong':
        append(pieces, phrasing(node.children, withMark('bold'), ctx));
        break;
      case 'emphasis':
        append(pieces, phrasing(node.children, withMark('italic'), ctx));
        break;
      case 'delete':
        append(pieces, phrasing(node.children, withMark('strikethrough'), ctx));
        break;
      case 'inlineCode':
        pieces.push({ kind: 'leaf', text: node.value, marks: withMark('code') });
        break;
      case 'break':
        pieces.push({ kind: 'leaf', text: '\n', marks });
        break;
      case 'link':
        pieces.push(linkInline(refOf(node.url, 'link', ctx), phrasing(node.children, marks, ctx)));
        break;
      case 'linkReference': {
        const definition = ctx.definitions.get(node.identifier);
        const inner = phrasing(node.children, marks, ctx);
        if (definition) pieces.push(linkInline(refOf(definition.url, 'link', ctx), inner));
        else append(pieces, inner);
        break;
      }
      case 'image':
        pieces.push(inlineImage(node.url, node.alt ?? undefined, ctx));
        break;
      case 'imageReference': {
        const definition = ctx.definitions.get(node.identifier);
        if (definition) pieces.push(inlineImage(definition.url, node.alt ?? undefined, ctx));
        break;
      }
      case 'html': {
        // Inline HTML tags are dropped (their inner text is separate nodes); images and <br> survive.
        if (/^<br\s*\/?>$/i.test(node.value.trim()))
          pieces.push({ kind: 'leaf', text: '\n', marks });
        const img = /<img\b[^>]*>/i.exec(node.value)?.[0];
        const src = img ? attribute(img, 'src') : undefined;
        if (img && src) {
          const size = attribute(img, 'data-size');
          const inline = inlineImage(src, attribute(img, 'alt') || undefined, ctx);
          if (size === 'line' || size === 'original') inline.data.size = size;
          pieces.push(inline);
        }
        break;
      }
      case 'footnoteReference':
        pieces.push({ kind: 'leaf', text: `[^${node.label ?? node.identifier}]`, marks });
        break;
      default:
        break;
    }
  }
  return pieces;
}

/**
 * Each line break with the spaces and tabs around it becomes one space. Not a regex: `[ \t]*\n`
 * retried at every space of a long run without a newline is quadratic.
 */
function softBreaksAsSpaces(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      let from = 0;
      let to = line.length;
      if (i > 0) while (from < to && isSpaceOrTab(line.charCodeAt(from))) from++;
      if (i < lines.length - 1) {
        if (line.charCodeAt(to - 1) === 0x0d) to--;
        while (to > from && isSpaceOrTab(line.charCodeAt(to - 1))) to--;
      }
      return line.slice(from, to);
    })
    .join(' ');
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function linkInline(ref: ContentRef, inner: Piece[]): DocumentInline {
  // A link holds text and inline images only; other inlines nested in it keep their place as text.
  const allowed = inner.filter(
    (piece): piece is Leaf | DocumentInlineImage => isLeaf(piece) || piece.type === 'inline-image',
  );
  return { object: 'inline', type: 'link', data: { ref }, nodes: normalize(allowed) };
}

function inlineImage(src: string, alt: string | undefined, ctx: Context): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    isVoid: true,
    data: { ref: imageRefOf(src, ctx), ...(alt ? { alt } : {}) },
  };
}

function leaf(text: string): Leaf {
  return { kind: 'leaf', text, marks: [] };
}

function sameMarks(a: readonly MarkType[], b: readonly MarkType[]): boolean {
  return a.length === b.length && a.every((mark) => b.includes(mark));
}

function textNode(leaves: readonly Leaf[]): DocumentText {
  return {
    object: 'text',
    leaves: (leaves.length > 0 ? leaves : [leaf('')]).map((piece) => ({
      object: 'leaf',
      text: piece.text,
      marks: MARK_ORDER.filter((mark) => piece.marks.includes(mark)).map(
        (type): DocumentTextMark => ({ object: 'mark', type }),
      ),
    })),
  };
}

/**
 * Groups leaves into text nodes (merging neighbours with equal marks) and, as the Slate-based
 * editor expects, puts a text node before, between and after inlines.
 */
function normalize<I extends DocumentInline>(
  pieces: ReadonlyArray<Leaf | I>,
): Array<DocumentText | I> {
  const out: Array<DocumentText | I> = [];
  let run: Leaf[] = [];
  const flush = () => {
    const merged: Leaf[] = [];
    for (const piece of run) {
      const last = merged[merged.length - 1];
      if (piece.text === '') continue;
      if (last && sameMarks(last.marks, piece.marks))
        merged[merged.length - 1] = { ...last, text: last.text + piece.text };
      else merged.push(piece);
    }
    out.push(textNode(merged));
    run = [];
  };
  for (const piece of pieces) {
    if ('kind' in piece) run.push(piece);
    else {
      flush();
      out.push(piece);
    }
  }
  flush();
  return out;
}

function paragraph(pieces: ReadonlyArray<Piece>): DocumentBlockParagraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes: normalize(pieces) };
}

function trimPieces(pieces: Piece[]): Piece[] {
  const out = [...pieces];
  const first = out[0];
  if (first && isLeaf(first)) out[0] = { ...first, text: first.text.trimStart() };
  const last = out[out.length - 1];
  if (last && isLeaf(last)) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out;
}

/**
 * `target.push(...items)` without spreading: spread arguments live on the stack, and a page with
 * a few hundred thousand blocks would overflow it.
 */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

function isLeaf(piece: Piece): piece is Leaf {
  return 'kind' in piece;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function collectDefinitions(root: Nodes, ctx: Context): void {
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'definition' && !ctx.definitions.has(node.identifier)) {
      ctx.definitions.set(node.identifier, { url: node.url, title: node.title });
    }
    if ('children' in node) append(stack, node.children as Nodes[]);
  }
}

// --- fitting blocks into what each container may hold ----------------------------------------

type TopLevel = JSONDocument['nodes'][number];
type BodyNode = Extract<
  DocumentBlockExpandable['fragments'][number],
  { fragment: 'expandable-body' }
>['nodes'][number];
type BlockType = DocumentBlock['type'];

const ESSENTIALS = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
] as const;

const TOP_LEVEL = new Set<TopLevel['type']>([
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'images',
  'file',
  'embed',
  'code',
  'math',
  'expandable',
  'tabs',
  'table',
  'content-ref',
]);
const HINT_CHILDREN = new Set<DocumentBlockHint['nodes'][number]['type']>([
  ...ESSENTIALS,
  'embed',
  'table',
]);
const QUOTE_CHILDREN = new Set<DocumentBlockQuote['nodes'][number]['type']>([
  ...ESSENTIALS,
  'blockquote',
]);
const LIST_ITEM_CHILDREN = new Set<DocumentBlockListItem['nodes'][number]['type']>([
  ...ESSENTIALS,
  'code',
  'hint',
  'blockquote',
  'math',
  'table',
]);
const TAB_CHILDREN = new Set<DocumentBlockTabsItem['nodes'][number]['type']>([
  ...ESSENTIALS,
  'content-ref',
  'code',
  'embed',
  'file',
  'images',
  'hint',
  'blockquote',
  'math',
]);
const EXPANDABLE_CHILDREN = new Set<BodyNode['type']>([
  ...ESSENTIALS,
  'file',
  'images',
  'code',
  'table',
  'hint',
  'blockquote',
]);

/**
 * Keeps the blocks a container may hold (the published schema's `nodes` union for it) and lowers
 * the others into ones it may: content is flattened or turned into paragraphs, never dropped.
 * `allowed` is typed by T's `type`s, so a set naming a block T excludes fails to compile.
 */
function fit<T extends DocumentBlock>(
  blocks: readonly DocumentBlock[],
  allowed: ReadonlySet<T['type']>,
  ctx: Context,
): T[] {
  const out: T[] = [];
  const isAllowed = (block: DocumentBlock): block is T =>
    (allowed as ReadonlySet<BlockType>).has(block.type);
  for (const block of blocks) {
    if (isAllowed(block)) out.push(block);
    else append(out, fit<T>(lower(block), allowed, ctx));
  }
  return out;
}

/** One level simpler: containers give up their children, leaf blocks become paragraphs. */
function lower(block: DocumentBlock): DocumentBlock[] {
  switch (block.type) {
    case 'images':
      return [paragraph(block.nodes.map((image): DocumentInlineImage => imageInline(image)))];
    case 'image':
      return [paragraph([imageInline(block)])];
    case 'code': {
      const text = block.nodes
        .map((line) =>
          line.nodes
            .map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : ''))
            .join(''),
        )
        .join('\n');
      return [paragraph([{ kind: 'leaf', text, marks: ['code'] }])];
    }
    case 'math':
      return [paragraph([{ kind: 'leaf', text: block.data.formula, marks: ['code'] }])];
    case 'embed':
      return [
        paragraph([linkInline({ kind: 'url', url: block.data.url }, [leaf(block.data.url)])]),
      ];
    case 'content-ref':
    case 'file':
      return [paragraph([linkInline(block.data.ref, [leaf(refLabel(block.data.ref))])])];
    case 'table':
      return tableRows(block);
    case 'expandable':
      return block.fragments.flatMap((fragment) => fragment.nodes);
    case 'list-item':
      return block.nodes;
    case 'code-line':
      return [
        paragraph(
          block.nodes
            .filter((node): node is DocumentText => node.object === 'text')
            .flatMap(textPieces),
        ),
      ];
    default:
      if ('nodes' in block && Array.isArray(block.nodes)) {
        return (block.nodes as ReadonlyArray<DocumentBlock | DocumentText | DocumentInline>).filter(
          (node): node is DocumentBlock => node.object === 'block',
        );
      }
      return [];
  }
}

function imageInline(image: DocumentBlockImage): DocumentInlineImage {
  return {
    object: 'inline',
    type: 'inline-image',
    isVoid: true,
    data: { ref: image.data.ref, ...(image.data.alt ? { alt: image.data.alt } : {}) },
  };
}

function refLabel(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return ref.page;
    case 'file':
      return ref.file;
    case 'anchor':
      return `#${ref.anchor}`;
    default:
      return ref.kind;
  }
}

function textPieces(text: DocumentText): Leaf[] {
  return text.leaves.map((item) => ({
    kind: 'leaf',
    text: item.text,
    marks: item.marks
      .map((mark) => mark.type)
      .filter((type): type is MarkType => (MARK_ORDER as readonly string[]).includes(type)),
  }));
}

/** A table where tables may not go: one paragraph per row, cells separated by " | ". */
function tableRows(block: DocumentBlockTable): DocumentBlockParagraph[] {
  const { view, definition, records } = block.data;
  const fragments = new Map(block.fragments.map((fragment) => [fragment.fragment, fragment]));
  const cellPieces = (value: unknown): Piece[] => {
    const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
    const first = fragment?.nodes[0];
    return first?.type === 'paragraph'
      ? first.nodes.flatMap((node): Piece[] => (node.object === 'text' ? textPieces(node) : [node]))
      : [];
  };
  const separated = (cells: Piece[][]): Piece[] =>
    cells.flatMap((cell, i) => (i === 0 ? cell : [leaf(' | '), ...cell]));
  const header = view.columns.map((column) => [leaf(definition[column]?.title ?? '')]);
  const rows = Object.values(records)
    .sort((a, b) => a.orderIndex.localeCompare(b.orderIndex))
    .map((record) => separated(view.columns.map((column) => cellPieces(record.values[column]))));
  return [
    paragraph(
      separated(header).map((piece) => (isLeaf(piece) ? { ...piece, marks: ['bold'] } : piece)),
    ),
    ...rows.map(paragraph),
  ];
}

/** Containers must hold at least one block in the editor model. */
function nonEmpty<T extends DocumentBlock>(blocks: T[]): T[] {
  return blocks.length > 0 ? blocks : [paragraph([]) as DocumentBlock as T];
}
