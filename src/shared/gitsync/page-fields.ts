/**
 * The page fields a Git Sync page file carries in its frontmatter, declared once for the server
 * (which reads them from the Markdown it is sent) and the desktop (which writes and reads them).
 * The names are the published API's (`RevisionPageUpdate`, `RevisionPageDocument`).
 */
import type { FrontmatterFieldType, FrontmatterProblem } from './frontmatter-problem';
import type { FrontmatterData, YamlValue } from './frontmatter-yaml';

/** Text fields; YAML reads `emoji: 2728` as a number, which is read as its text. */
export const PAGE_TEXT_FIELDS = ['description', 'icon', 'emoji'] as const;
export const PAGE_FLAG_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
/** Every page field a frontmatter key sets directly, under the same name. */
export const PAGE_FIELDS = [...PAGE_TEXT_FIELDS, ...PAGE_FLAG_FIELDS] as const;
export type PageFieldName = (typeof PAGE_FIELDS)[number];

/** The page fields of PAGE_FIELDS; only the ones set are present. */
export type PageFields = { [K in (typeof PAGE_TEXT_FIELDS)[number]]?: string } & {
  [K in (typeof PAGE_FLAG_FIELDS)[number]]?: boolean;
};

/** Cover keys: `cover` is an asset path relative to the page or a URL; these are numbers. */
export const COVER_NUMBER_KEYS = ['coverY', 'coverHeight'] as const;

/** The API's flat layout options (`RevisionPageLayoutOptions`), every key optional. */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: string;
  coverMask?: string;
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
  tags?: boolean;
  actions?: boolean;
  anchors?: boolean;
}

/** The set page fields of `source`, and nothing else of it. */
export function pickPageFields(source: Readonly<PageFields>): PageFields {
  const fields: Record<string, string | boolean> = {};
  for (const key of PAGE_FIELDS) {
    const value = source[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields as PageFields;
}

/** What a page's frontmatter says about the page. */
export interface FrontmatterPageFields extends PageFields {
  /** The `layout:` mapping as written (see layoutFromFrontmatter for the API's flat form). */
  layout?: { readonly [key: string]: YamlValue };
  /** The `cover:` value as written (an asset path relative to the page, or a URL). */
  cover?: string;
  coverY?: number;
  coverHeight?: number;
  /** `title:`, trimmed; it takes precedence over the leading `# Heading` (Git Sync's rule). */
  title?: string;
}

/**
 * Reads the page fields of a frontmatter mapping. A key of the wrong type is a problem (and
 * left out); every problem is collected, in the order the server reports them (it refuses the
 * Markdown with the first). Absent and null keys set nothing.
 */
export function readPageFields(data: FrontmatterData): {
  fields: FrontmatterPageFields;
  problems: FrontmatterProblem[];
} {
  const fields: FrontmatterPageFields = {};
  const problems: FrontmatterProblem[] = [];
  const wrong = (field: string, expected: FrontmatterFieldType) =>
    problems.push({ kind: 'field', field, expected });
  for (const key of PAGE_TEXT_FIELDS) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
    else wrong(key, 'string');
  }
  for (const key of PAGE_FLAG_FIELDS) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'boolean') fields[key] = value;
    else wrong(key, 'boolean');
  }
  for (const key of COVER_NUMBER_KEYS) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'number') fields[key] = value;
    else wrong(key, 'number');
  }
  const layout = data['layout'];
  if (isMapping(layout)) fields.layout = layout;
  else if (layout !== undefined && layout !== null) {
    wrong('layout', 'mapping');
  }
  const cover = data['cover'];
  if (typeof cover === 'string') fields.cover = cover;
  else if (cover !== undefined && cover !== null) {
    wrong('cover', 'path or URL');
  }
  const title = data['title'];
  if (typeof title === 'string' || typeof title === 'number') {
    const text = String(title).trim();
    if (text !== '') fields.title = text;
  } else if (title !== undefined && title !== null) {
    wrong('title', 'string');
  }
  return { fields, problems };
}

/** A YAML mapping (not a sequence, a date or a scalar). */
export function isMapping(
  value: YamlValue | undefined,
): value is { readonly [key: string]: YamlValue } {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}
