/** The page every view is rendered into: header with breadcrumbs and sign-out, then the view. */
import { markup, type SafeHtml } from './safe-html';
import { VIEW_STYLESHEET_PATH } from './view-style';

export interface Crumb {
  label: string;
  href?: string;
}

export interface ViewPage {
  title: string;
  /** Who is signed in (display name), for the header; absent on the sign-in page. */
  viewer?: string;
  crumbs?: readonly Crumb[];
  /** The page's content, inside <main> unless `layout` already holds its own <main>. */
  body: SafeHtml;
  /** true: `body` brings its own layout (tree + main); false: a narrow <main> is added. */
  wide?: boolean;
}

function crumbsNav(crumbs: readonly Crumb[]): SafeHtml {
  if (crumbs.length === 0) return markup``;
  const items = crumbs.map((crumb, i) =>
    crumb.href && i < crumbs.length - 1
      ? markup`<li><a href="${crumb.href}">${crumb.label}</a></li>`
      : markup`<li><span aria-current="page">${crumb.label}</span></li>`,
  );
  return markup`<nav class="crumbs" aria-label="Breadcrumb">
    <ol>
      ${items}
    </ol>
  </nav>`;
}

function signOut(viewer: string | undefined): SafeHtml {
  if (viewer === undefined) return markup`<a href="/app/sign-in">Sign in</a>`;
  return markup`<span class="meta">${viewer}</span>
    <form method="post" action="/app/sign-out"><button type="submit">Sign out</button></form>`;
}

/** A whole HTML document. */
export function renderViewPage(page: ViewPage): string {
  const main = page.wide ? page.body : markup`<main id="main" class="narrow">${page.body}</main>`;
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${page.title} · Quire</title>
        <link rel="stylesheet" href="${VIEW_STYLESHEET_PATH}" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <a class="brand" href="/">Quire</a>
          ${crumbsNav(page.crumbs ?? [])}
          <div>${signOut(page.viewer)}</div>
        </header>
        ${main}
      </body>
    </html> `.value;
}
