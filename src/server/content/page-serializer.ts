import type { Urls } from '../http/urls';
import type { FileUrlSigner } from './file-url-signer';
import { defaultContentRef } from './markdown-to-document';
import type { RevisionTree, StoredFile, StoredPage } from './revision-tree';

export type PageFormat = 'markdown' | 'document';

export interface PageSerializeOptions {
  urls: Urls;
  spaceId: string;
  /**
   * Present for change-request content: app URLs point into the change request. Pass what the
   * change request's own `urls.app` uses (its number), so both link to the same place.
   */
  changeRequestId?: string;
  format?: PageFormat | undefined;
  /** Loads a body by hash (only called when a format is asked for). */
  body(hash: string): string;
  /**
   * The `document` block tree of a body by hash (format=document; `''` for a page without a
   * body). Documents are converted before serialising starts, off the event loop.
   */
  document?(hash: string): unknown;
  /**
   * Whether child pages carry content too (default true, as a whole revision does). A single-page
   * read sets false: the page has its content, its children only their summaries.
   */
  childContent?: boolean;
}

/** One API page (document, group or link) with its children, paths resolved from slugs. */
export type ApiPage = Record<string, unknown> & { id: string; pages?: ApiPage[] };

/** What stays the same for every page of one serialisation, computed once (trees can be large). */
interface Walk {
  options: PageSerializeOptions;
  /** Absolute app URL the page paths are appended to. */
  appPrefix: string;
}

function walkOf(options: PageSerializeOptions): Walk {
  const appBase = options.changeRequestId
    ? `/s/${options.spaceId}/~/changes/${options.changeRequestId}`
    : `/s/${options.spaceId}`;
  return { options, appPrefix: `${options.urls.app(appBase)}/` };
}

/** Serialises a page tree the way the published API returns revision pages. */
export function serializePages(
  pages: readonly StoredPage[],
  options: PageSerializeOptions,
  parentPath = '',
): ApiPage[] {
  return pagesOf(pages, walkOf(options), parentPath);
}

export function pagePath(parentPath: string, page: StoredPage): string {
  return parentPath ? `${parentPath}/${page.slug}` : page.slug;
}

export function serializePage(
  page: StoredPage,
  options: PageSerializeOptions,
  parentPath: string,
): ApiPage {
  return pageOf(page, walkOf(options), parentPath);
}

function pagesOf(pages: readonly StoredPage[], walk: Walk, parentPath: string): ApiPage[] {
  const result = new Array<ApiPage>(pages.length);
  for (let i = 0; i < pages.length; i++) result[i] = pageOf(pages[i]!, walk, parentPath);
  return result;
}

/**
 * Builds the page field by field from known stored fields only, so nothing stored for internal use
 * (body hashes, link targets) leaks even when the response is serialised without a schema.
 */
function pageOf(page: StoredPage, walk: Walk, parentPath: string): ApiPage {
  const result: ApiPage = { id: page.id, title: page.title };
  if (page.emoji) result['emoji'] = page.emoji;
  if (page.icon) result['icon'] = page.icon;
  result['createdAt'] = page.createdAt;
  result['updatedAt'] = page.updatedAt;

  if (page.type === 'link') {
    const href = page.href ?? '';
    result['kind'] = 'link';
    result['type'] = 'link';
    result['href'] = href;
    result['target'] = defaultContentRef(href);
    if (page.hidden) result['hidden'] = true;
    return result;
  }

  const path = pagePath(parentPath, page);
  // Groups do not add their slug to their children's paths (GitBook's behaviour).
  const childParent = page.type === 'group' ? parentPath : path;
  if (page.type === 'group') {
    result['kind'] = 'group';
    result['type'] = 'group';
    result['slug'] = page.slug;
    result['path'] = path;
  } else {
    result['kind'] = 'sheet';
    result['type'] = 'document';
    result['slug'] = page.slug;
    result['path'] = path;
    if (page.description) result['description'] = page.description;
    if (page.documentId) result['documentId'] = page.documentId;
    result['urls'] = { app: walk.appPrefix + urlPath(path) };
    if (page.layout) result['layout'] = page.layout;
    if (page.cover) result['cover'] = page.cover;
  }
  result['hidden'] = page.hidden ?? false;
  result['noIndex'] = page.noIndex ?? false;
  result['noRobotsIndex'] = page.noRobotsIndex ?? false;
  const { format } = walk.options;
  const childWalk =
    format && walk.options.childContent === false
      ? { ...walk, options: { ...walk.options, format: undefined } }
      : walk;
  result['pages'] = pagesOf(page.pages, childWalk, childParent);

  if (format && page.type === 'document') {
    // A page without a body is an empty page: it still carries the (empty) content asked for.
    const markdown = page.body ? walk.options.body(page.body) : '';
    if (format === 'markdown') result['markdown'] = markdown;
    else if (walk.options.document) result['document'] = walk.options.document(page.body ?? '');
  }
  return result;
}

/**
 * A page path as URL path segments. Slugs are checked (letters, digits, `.`, `_`, `-`) and pass
 * as they are; one stored before slugs were checked (a fixture's `?x`, `a b`) is percent-encoded
 * so the URL still names the page instead of starting a query or a fragment.
 */
function urlPath(path: string): string {
  if (/^[A-Za-z0-9._~/-]*$/.test(path)) return path;
  return path
    .split('/')
    .map((segment) => encodeURIComponent(wellFormed(segment)))
    .join('/');
}

/** Finds a page anywhere in the tree with its parent path (for single-page reads). */
export function findPage(
  pages: readonly StoredPage[],
  predicate: (page: StoredPage, path: string) => boolean,
  parentPath = '',
): { page: StoredPage; parentPath: string } | undefined {
  for (const page of pages) {
    const path = pagePath(parentPath, page);
    if (predicate(page, path)) return { page, parentPath };
    const found = findPage(page.pages, predicate, page.type === 'group' ? parentPath : path);
    if (found) return found;
  }
  return undefined;
}

/** The longest name segment a download URL's path carries; longer names go in the query. */
const MAX_NAME_SEGMENT = 1024;

/**
 * The token-free download URL of a file. The signature covers the space, the file id, its bytes
 * (blob hash), and the content type and name the download is served with, so none of them can be
 * swapped in a forged URL. The name segment is cosmetic (browsers save under it).
 *
 * Any stored name makes a URL that reaches its own file, names stored before names were checked
 * included: a name that cannot be a path segment (`.` and `..` are removed by URL parsing, an
 * empty or very long one) travels as `?name=` on the URL without the segment, and text that
 * UTF-8 cannot encode (unpaired surrogates) is signed and sent as U+FFFD.
 */
export function fileDownloadUrl(
  file: StoredFile,
  urls: Urls,
  spaceId: string,
  signer: FileUrlSigner,
): string {
  const name = wellFormed(file.name);
  const type = wellFormed(file.contentType);
  const signature = signer.sign(spaceId, file.id, signedBlob(file.blob, type, name));
  const path = `/files/${encodeURIComponent(spaceId)}/${encodeURIComponent(file.id)}/${file.blob}`;
  const query = `type=${encodeURIComponent(type)}&sig=${signature}`;
  const segment = encodeURIComponent(name);
  if (isPathSegment(segment)) return `${urls.api(`${path}/${segment}`)}?${query}`;
  return `${urls.api(path)}?name=${segment}&${query}`;
}

/** Whether an encoded segment stays itself in a URL (encodeURIComponent leaves dots alone). */
function isPathSegment(segment: string): boolean {
  return (
    segment !== '' && segment !== '.' && segment !== '..' && segment.length <= MAX_NAME_SEGMENT
  );
}

/** `text` with every unpaired surrogate replaced by U+FFFD (String#toWellFormed, ES2024). */
export function wellFormed(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}

/** What a download signature covers besides the space and file id (see fileDownloadUrl). */
export function signedBlob(blob: string, contentType: string, name: string): string {
  // JSON keeps the parts apart even when a name or type contains the separator.
  return JSON.stringify([blob, contentType, name]);
}

/** The File resource, with a download URL the server really serves. */
export function serializeFile(
  file: StoredFile,
  urls: Urls,
  spaceId: string,
  signer: FileUrlSigner,
) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: fileDownloadUrl(file, urls, spaceId, signer),
    size: file.size,
    ...(file.dimensions
      ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } }
      : {}),
  };
}

export function countPages(tree: RevisionTree): number {
  let n = 0;
  const visit = (pages: readonly StoredPage[]) => {
    for (const page of pages) {
      n++;
      visit(page.pages);
    }
  };
  visit(tree.pages);
  return n;
}
