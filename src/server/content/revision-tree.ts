/** How a revision's content is stored: the page tree with body hashes, and file metadata. */

export type PageType = 'document' | 'group' | 'link';

export interface StoredPage {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  documentId?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  /** Target of a link page. */
  href?: string;
  /** SHA-256 of the Markdown body (document pages). */
  body?: string;
  createdAt: string;
  updatedAt: string;
  pages: StoredPage[];
}

export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes in the blobs table. */
  blob: string;
  dimensions?: { width: number; height: number };
  createdAt: string;
}

export interface RevisionTree {
  pages: StoredPage[];
  files: StoredFile[];
}

/** Lower-case, ASCII-dash slug of a title, as GitBook derives page slugs. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || 'page';
}

/** Visits every page depth-first with its slash-joined path. */
export function* walkPages(
  pages: readonly StoredPage[],
  parentPath = '',
): Generator<{ page: StoredPage; path: string }> {
  for (const page of pages) {
    const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
    yield { page, path };
    yield* walkPages(page.pages, page.type === 'group' ? parentPath : path);
  }
}
