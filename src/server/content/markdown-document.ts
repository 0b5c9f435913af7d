/**
 * The page metadata a Markdown page carries, as Git Sync writes it: frontmatter fields and the
 * leading `# Title`. The page's published document is markdown-to-document.ts's.
 */
import matter from 'gray-matter';
import { nodeText, parseMarkdown } from './parse-markdown';

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
