/**
 * Renders a revision's content: the page tree as navigation and one page with its sanitised
 * body. It knows nothing of sessions or routes — only where page links point (`linkBase`) — so
 * a published site's view can reuse it as it is.
 */
import { findPage, pagePath } from '../content/page-serializer';
import type { StoredPage } from '../content/revision-tree';
import { markup, safeHref, SafeHtml } from './safe-html';

export interface ContentView {
  pages: readonly StoredPage[];
  /** Where page paths are appended (`/app/s/<space>`, a change request's or revision's base). */
  linkBase: string;
  /** The page shown, or undefined for a space without any document page. */
  page: StoredPage | undefined;
  /** Sanitised HTML of the page's body (markdown-html.ts). */
  bodyHtml: string;
  /** Shown above the page (what this content is: a change request, an old revision). */
  banner?: SafeHtml;
}

/** A page path as URL segments, the way the API's `urls.app` encodes it. */
export function pageHref(linkBase: string, path: string): string {
  if (/^[A-Za-z0-9._~/-]*$/.test(path)) return `${linkBase}/${path}`;
  return `${linkBase}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The document page at a path (slashes around it ignored); '' is the first document page. */
export function findDocumentPage(
  pages: readonly StoredPage[],
  rawPath: string,
): StoredPage | undefined {
  const path = rawPath.replace(/^\/+|\/+$/g, '');
  const found = findPage(pages, (page, candidate) =>
    path === '' ? page.type === 'document' : page.type === 'document' && candidate === path,
  );
  return found?.page;
}

function treeItems(
  pages: readonly StoredPage[],
  view: ContentView,
  parentPath: string,
): SafeHtml[] {
  return pages
    .filter((page) => !page.hidden)
    .map((page) => {
      const path = pagePath(parentPath, page);
      if (page.type === 'link') {
        const href = safeHref(page.href ?? '');
        return href
          ? markup`<li><a href="${href}" rel="noopener noreferrer">${page.title}</a></li>`
          : markup`<li>${page.title}</li>`;
      }
      if (page.type === 'group') {
        return markup`<li>
          <span class="group">${page.title}</span>${treeList(page.pages, view, parentPath)}
        </li>`;
      }
      const current = view.page?.id === page.id ? markup` aria-current="page"` : markup``;
      return markup`<li>
        <a href="${pageHref(view.linkBase, path)}" ${current}>${page.title}</a
        >${treeList(page.pages, view, path)}
      </li>`;
    });
}

function treeList(pages: readonly StoredPage[], view: ContentView, parentPath: string): SafeHtml {
  const items = treeItems(pages, view, parentPath);
  return items.length === 0
    ? markup``
    : markup`<ul>
        ${items}
      </ul>`;
}

/** The navigation and the page, as the `body` of a wide ViewPage. */
export function renderContentView(view: ContentView, label: string): SafeHtml {
  const nav = markup`<nav class="tree" aria-label="${label}">${treeList(view.pages, view, '')}</nav>`;
  const page = view.page;
  const article = page
    ? markup`<article>
        <h1>${page.emoji ? `${page.emoji} ` : ''}${page.title}</h1>
        ${page.description ? markup`<p class="meta">${page.description}</p>` : ''}
        <div class="content">${new SafeHtml(view.bodyHtml)}</div>
      </article>`
    : markup`<p>This space has no pages yet.</p>`;
  return markup`<div class="layout">
    ${nav}
    <main id="main">${view.banner ?? ''}${article}</main>
  </div>`;
}
