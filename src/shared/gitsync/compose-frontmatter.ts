/**
 * Page fields → the frontmatter Git Sync writes for a page.
 *
 * Key order (from GitBook's own synced repository; Git Sync's serialiser is closed source): keys
 * Quire does not model (`name`, `metadata`, `vars`, `if`, …) first, in the order the page's
 * Markdown had them, then `description, cover, coverY, coverHeight, layout, hidden, noIndex,
 * noRobotsIndex, icon, emoji, tags`. Observed sequences: `description hidden noIndex
 * noRobotsIndex icon`, `description cover coverY coverHeight layout`, `description layout tags`,
 * `name metadata description hidden`. Where `emoji` goes is not attested (GitBook's docs do not
 * say how emoji are synced); it follows `icon`, under the key the Quire server reads.
 */
import { dumpYaml, type FrontmatterData, type YamlValue } from './frontmatter-yaml';
import { isMapping, PAGE_FIELDS, type PageFields, type PageLayout } from './page-fields';

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
const FIELD_KEYS = new Set<string>(PAGE_FIELDS);
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

/** What composeFrontmatter reads of a page: its fields, layout and cover position. */
export interface ComposablePage extends PageFields {
  layout?: PageLayout;
  /** The API's cover; its position is written from it, its source comes as an option. */
  cover?: { ref?: unknown; refDark?: unknown; yPos?: number; height?: number };
}

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
  page: ComposablePage,
  options: ComposeFrontmatterOptions = {},
): FrontmatterData {
  const existing = options.existing ?? {};
  const values = new Map<string, YamlValue>();
  for (const key of PAGE_FIELDS) {
    const value = page[key];
    // Only set fields are written: an empty text or a false flag is the field's absence.
    if (value) values.set(key, value);
  }

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
export function layoutToFrontmatter(layout: PageLayout, hasCover: boolean): FrontmatterData {
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
export function layoutFromFrontmatter(value: YamlValue): PageLayout {
  const layout: PageLayout = {};
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
