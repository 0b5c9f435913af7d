/**
 * Page frontmatter as Git Sync writes and reads it: which page fields become which keys, in which
 * order, and the YAML block around them.
 *
 * Key order (from GitBook's own synced repository; Git Sync's serialiser is closed source): keys
 * Quire does not model (`name`, `metadata`, `vars`, `if`, …) first, in the order the page's
 * Markdown had them, then `description, cover, coverY, coverHeight, layout, hidden, noIndex,
 * noRobotsIndex, icon, emoji, tags`. Observed sequences: `description hidden noIndex
 * noRobotsIndex icon`, `description cover coverY coverHeight layout`, `description layout tags`,
 * `name metadata description hidden`. Where `emoji` goes is not attested (GitBook's docs do not
 * say how emoji are synced); it follows `icon`, under the key the Quire server reads.
 */
import matter from 'gray-matter';
import { dumpYaml, type YamlValue } from './dump-yaml';
import type { MirrorLayout, MirrorPage } from './gitsync-types';

/** Invalid, non-YAML or oversized frontmatter; the message is fit to show the user. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

export type FrontmatterData = Record<string, YamlValue>;

export interface SplitFrontmatter {
  /** The YAML mapping; undefined when the Markdown has no frontmatter block. */
  data?: FrontmatterData;
  /** The block exactly as written, delimiters and final line break included ('' when none). */
  raw: string;
  /** The Markdown after the block. */
  body: string;
}

/** A YAML alias can make a tiny block huge; more values than this are refused. */
const NODE_BUDGET = 10_000;
const MAX_DEPTH = 32;

const OPENING = /^---([^\r\n]*)\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/** Where a page's frontmatter block is, before any YAML is parsed. */
export interface FrontmatterBlock {
  /** The block exactly as written, delimiters and final line break included. */
  raw: string;
  /** The text between the delimiters, its last line break included. */
  yaml: string;
  /** What follows the opening `---` (`yaml`, or `js` which must be refused), lower-cased. */
  language: string;
  /** The Markdown after the block. */
  body: string;
}

/**
 * Finds the frontmatter block: only a closed block at the very start is one (otherwise `---` is
 * a thematic break).
 */
export function findFrontmatterBlock(markdown: string): FrontmatterBlock | undefined {
  const opening = OPENING.exec(markdown);
  if (!opening || opening[1]?.startsWith('-')) return undefined;
  const rest = markdown.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return undefined;
  const end = opening[0].length + closing.index + closing[0].length;
  return {
    raw: markdown.slice(0, end),
    yaml: rest.slice(0, closing.index),
    language: (opening[1] ?? '').trim().toLowerCase(),
    body: markdown.slice(end),
  };
}

/**
 * Splits a page into its frontmatter and the Markdown after it. Throws FrontmatterError for
 * invalid YAML, a non-YAML block (`---js` would be evaluated by gray-matter's JS engine) or a
 * block that is not a mapping.
 */
export function splitFrontmatter(markdown: string): SplitFrontmatter {
  const block = findFrontmatterBlock(markdown);
  if (!block) return { raw: '', body: markdown };
  if (block.language !== '' && block.language !== 'yaml' && block.language !== 'yml') {
    throw new FrontmatterError(
      `frontmatter language "${block.language}" is not supported; use YAML`,
    );
  }
  return { data: parseFrontmatterYaml(block.yaml), raw: block.raw, body: block.body };
}

/** Parses the YAML between the delimiters into plain, JSON-safe values. */
export function parseFrontmatterYaml(yaml: string): FrontmatterData {
  let parsed: unknown;
  try {
    // A fresh options object every call: gray-matter caches (and shares) results of calls made
    // without options. Every engine but YAML throws, so nothing can reach `eval`.
    parsed = matter(`---\n${yaml}\n---\n`, {
      language: 'yaml',
      excerpt: false,
      engines: {
        javascript: refuseEngine,
        js: refuseEngine,
        coffee: refuseEngine,
        coffeescript: refuseEngine,
        cson: refuseEngine,
        json: refuseEngine,
        toml: refuseEngine,
      },
    }).data;
  } catch (error) {
    throw yamlError(error);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new FrontmatterError('frontmatter must be a YAML mapping of keys to values');
  }
  return plainCopy(parsed, { nodes: 0 }, 0) as FrontmatterData;
}

function refuseEngine(): object {
  throw new FrontmatterError('frontmatter must be YAML');
}

function yamlError(error: unknown): FrontmatterError {
  if (error instanceof FrontmatterError) return error;
  const yaml = error as {
    name?: string;
    reason?: string;
    mark?: { line?: number };
    message?: string;
  };
  if (yaml.name === 'YAMLException') {
    // The parsed text starts with the `---` line, so js-yaml's 0-based line is the page's line.
    const line = typeof yaml.mark?.line === 'number' ? ` at line ${yaml.mark.line + 1}` : '';
    return new FrontmatterError(
      `invalid YAML frontmatter: ${yaml.reason ?? 'syntax error'}${line}`,
    );
  }
  return new FrontmatterError(`invalid frontmatter: ${yaml.message ?? String(error)}`);
}

/** A deep copy into YAML values that refuses alias bombs and deep nesting. */
function plainCopy(value: unknown, budget: { nodes: number }, depth: number): YamlValue {
  budget.nodes += 1;
  if (budget.nodes > NODE_BUDGET || depth > MAX_DEPTH) {
    throw new FrontmatterError('frontmatter is too large or too deeply nested');
  }
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') {
    return value;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, budget, depth + 1));
  if (typeof value === 'object') {
    const copy: Record<string, YamlValue> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own data only: a `__proto__` key must not reach the prototype.
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

// --- writing -----------------------------------------------------------------------------------

/** Page-field keys in the order Git Sync writes them (see the module comment). */
export const GIT_SYNC_KEY_ORDER = [
  'description',
  'cover',
  'coverY',
  'coverHeight',
  'layout',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'icon',
  'emoji',
  'tags',
] as const;

/**
 * Keys whose value is the page field's: the server reads them from the frontmatter it is sent, so
 * an absent field means the key is gone. The cover and layout keys are taken from the page when
 * it has them and kept from the Markdown otherwise (the server does not read them back).
 */
const FIELD_KEYS = new Set(['description', 'hidden', 'noIndex', 'noRobotsIndex', 'icon', 'emoji']);
const ORDERED_KEYS = new Set<string>(GIT_SYNC_KEY_ORDER);

/** `layout` sub-keys in Git Sync's order; each but `width` is written as `{visible: …}`. */
const LAYOUT_VISIBILITY_KEYS = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;

export interface ComposeFrontmatterOptions {
  /** The frontmatter the page's Markdown already carries (its unknown keys are kept). */
  existing?: FrontmatterData;
  /** The cover as written: an asset path relative to the page, or a URL. */
  coverSource?: string;
}

/**
 * The frontmatter Git Sync writes for a page: only keys with a value, in Git Sync's order, merged
 * with the keys of the page's own frontmatter that no page field covers.
 */
export function composeFrontmatter(
  page: Pick<
    MirrorPage,
    'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'layout' | 'cover'
  >,
  options: ComposeFrontmatterOptions = {},
): FrontmatterData {
  const existing = options.existing ?? {};
  const values = new Map<string, YamlValue>();
  if (page.description) values.set('description', page.description);
  if (page.hidden) values.set('hidden', true);
  if (page.noIndex) values.set('noIndex', true);
  if (page.noRobotsIndex) values.set('noRobotsIndex', true);
  if (page.icon) values.set('icon', page.icon);
  if (page.emoji) values.set('emoji', page.emoji);

  if (page.cover) {
    if (options.coverSource !== undefined) values.set('cover', options.coverSource);
    if (typeof page.cover.yPos === 'number') values.set('coverY', page.cover.yPos);
    if (typeof page.cover.height === 'number') values.set('coverHeight', page.cover.height);
  } else {
    for (const key of ['cover', 'coverY', 'coverHeight'] as const) {
      const value = existing[key];
      if (value !== undefined) values.set(key, value);
    }
  }
  const hasCover = values.has('cover');
  const layout = page.layout ? layoutToFrontmatter(page.layout, hasCover) : existing['layout'];
  if (layout !== undefined && !isEmptyMapping(layout)) values.set('layout', layout);
  const tags = existing['tags'];
  if (tags !== undefined) values.set('tags', tags);

  const result: FrontmatterData = {};
  for (const [key, value] of Object.entries(existing)) {
    if (!ORDERED_KEYS.has(key) && !FIELD_KEYS.has(key)) define(result, key, value);
  }
  for (const key of GIT_SYNC_KEY_ORDER) {
    const value = values.get(key);
    if (value !== undefined) define(result, key, value);
  }
  return result;
}

/**
 * The API's flat layout options as Git Sync's nested `layout:` mapping. The cover options are
 * only written for a page that has a cover, as GitBook does.
 */
export function layoutToFrontmatter(layout: MirrorLayout, hasCover: boolean): FrontmatterData {
  const result: FrontmatterData = {};
  if (layout.width !== undefined) result['width'] = layout.width;
  if (hasCover) {
    const cover: FrontmatterData = {};
    if (layout.cover !== undefined) cover['visible'] = layout.cover;
    if (layout.coverSize !== undefined) cover['size'] = layout.coverSize;
    if (layout.coverMask !== undefined) cover['mask'] = layout.coverMask;
    if (Object.keys(cover).length > 0) result['cover'] = cover;
  }
  for (const key of LAYOUT_VISIBILITY_KEYS) {
    const visible = layout[key];
    if (visible !== undefined) result[key] = { visible };
  }
  return result;
}

/** Git Sync's nested `layout:` mapping as the API's flat options (unknown entries are dropped). */
export function layoutFromFrontmatter(value: YamlValue): MirrorLayout {
  const layout: MirrorLayout = {};
  if (!isMapping(value)) return layout;
  const width = value['width'];
  if (width === 'default' || width === 'wide') layout.width = width;
  const cover = value['cover'];
  if (isMapping(cover)) {
    if (typeof cover['visible'] === 'boolean') layout.cover = cover['visible'];
    if (typeof cover['size'] === 'string') layout.coverSize = cover['size'];
    if (typeof cover['mask'] === 'string') layout.coverMask = cover['mask'];
  }
  for (const key of LAYOUT_VISIBILITY_KEYS) {
    const entry = value[key];
    if (isMapping(entry) && typeof entry['visible'] === 'boolean') layout[key] = entry['visible'];
  }
  return layout;
}

/** The frontmatter block for `data`: `---`, the YAML, `---`; '' when there is nothing to write. */
export function formatFrontmatter(data: FrontmatterData): string {
  return Object.keys(data).length === 0 ? '' : `---\n${dumpYaml(data)}---\n`;
}

/** Whether two frontmatter values are the same, key order included (order is visible churn). */
export function sameFrontmatter(a: YamlValue | undefined, b: YamlValue | undefined): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameFrontmatter(item, b[i]));
  }
  if (isMapping(a) || isMapping(b)) {
    if (!isMapping(a) || !isMapping(b)) return false;
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    return (
      keysA.length === keysB.length &&
      keysA.every((key, i) => key === keysB[i] && sameFrontmatter(a[key], b[key]))
    );
  }
  return Object.is(a, b);
}

// --- reading -----------------------------------------------------------------------------------

/** Page fields read from frontmatter, and what was wrong with the ones that could not be read. */
export interface FrontmatterFields {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: MirrorLayout;
  /** The `cover:` value as written (an asset path relative to the page, or a URL). */
  cover?: string;
  coverY?: number;
  coverHeight?: number;
  /** `title:` (Git Sync prefers the SUMMARY.md link text; kept for pages outside it). */
  title?: string;
  problems: string[];
}

export function readFrontmatterFields(data: FrontmatterData): FrontmatterFields {
  const fields: FrontmatterFields = { problems: [] };
  for (const key of ['description', 'icon', 'emoji', 'title'] as const) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    // YAML reads `emoji: 2728` as a number; the field is a string either way.
    if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
    else fields.problems.push(`frontmatter "${key}" must be a string`);
  }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'boolean') fields[key] = value;
    else fields.problems.push(`frontmatter "${key}" must be true or false`);
  }
  for (const key of ['coverY', 'coverHeight'] as const) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isFinite(value)) fields[key] = value;
    else fields.problems.push(`frontmatter "${key}" must be a number`);
  }
  const cover = data['cover'];
  if (typeof cover === 'string') fields.cover = cover;
  else if (cover !== undefined && cover !== null) {
    fields.problems.push('frontmatter "cover" must be a path or a URL');
  }
  const layout = data['layout'];
  if (isMapping(layout)) fields.layout = layoutFromFrontmatter(layout);
  else if (layout !== undefined && layout !== null) {
    fields.problems.push('frontmatter "layout" must be a mapping');
  }
  return fields;
}

// --- helpers -----------------------------------------------------------------------------------

function isMapping(value: YamlValue | undefined): value is { readonly [key: string]: YamlValue } {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function isEmptyMapping(value: YamlValue): boolean {
  return isMapping(value) && Object.keys(value).length === 0;
}

function define(target: FrontmatterData, key: string, value: YamlValue): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
