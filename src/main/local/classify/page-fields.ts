import { posix } from 'node:path';
import { PAGE_FLAG_FIELDS, PAGE_TEXT_FIELDS } from '../../../shared/gitsync/page-fields';
import { README_PATH } from '../../../shared/gitsync/render-gitsync-layout';
import { titleSlug } from '../../mirror/title-slug';
import type { PageFieldsUpdate } from '../local-content-change';
import type { CachedPage } from './cached-tree';
import { dirOf } from './dir-of';
import type { LocalPage } from './read-pages';

const SLUG = /^[a-z0-9][a-z0-9._-]*$/i;

/** The page fields the frontmatter changes; a key removed from it clears the field. */
export function fieldChanges(local: LocalPage, cached: CachedPage): PageFieldsUpdate {
  const update: PageFieldsUpdate = {};
  for (const key of PAGE_TEXT_FIELDS) {
    const value = local.fields[key] ?? '';
    if (value !== (cached[key] ?? '')) update[key] = value;
  }
  for (const key of PAGE_FLAG_FIELDS) {
    const value = local.fields[key] ?? false;
    if (value !== (cached[key] ?? false)) update[key] = value;
  }
  return update;
}

/** A new page's fields: its title (file, else SUMMARY.md, else file name), slug and frontmatter. */
export function newPageFields(
  local: LocalPage,
  summaryTitle: string | undefined,
): PageFieldsUpdate {
  const fields: PageFieldsUpdate = {};
  const title = local.title || summaryTitle || fallbackTitle(local.file.path);
  if (title) fields.title = title;
  const slug = slugOfPath(local.file.path);
  if (slug !== undefined) fields.slug = slug;
  for (const key of PAGE_TEXT_FIELDS) {
    const value = local.fields[key];
    if (value) fields[key] = value;
  }
  for (const key of PAGE_FLAG_FIELDS) {
    if (local.fields[key]) fields[key] = true;
  }
  return fields;
}

/** A moved page's new slug, when its name changed (a move that keeps the name keeps the slug). */
export function slugChange(from: string, to: string): string | undefined {
  if (nameOfPath(from) === nameOfPath(to)) return undefined;
  return slugOfPath(to);
}

/** The name a page file gives its page: `x.md` and `x/README.md` are `x`; the space's README none. */
function nameOfPath(path: string): string | undefined {
  if (path === README_PATH) return undefined;
  if (posix.basename(path) === README_PATH) return posix.basename(dirOf(path));
  return posix.basename(path).replace(/\.md$/i, '');
}

/** The slug a file name gives (valid slugs as they are, others as the title's slug would be). */
function slugOfPath(path: string): string | undefined {
  const name = nameOfPath(path);
  if (name === undefined) return undefined;
  if (SLUG.test(name) && name.length <= 100) return name;
  const slug = titleSlug(name);
  return slug === '' ? undefined : slug;
}

function fallbackTitle(path: string): string | undefined {
  return nameOfPath(path);
}
