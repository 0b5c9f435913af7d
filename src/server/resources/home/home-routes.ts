import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { JWKS_PATH } from '../well-known/jwks-routes';

/** Nothing on the page loads or runs anything: inline styles only. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The page a browser gets at the server's root: what this is and where to go from here. */
export function homePage(serverUrl: string): string {
  const url = escapeHtml(serverUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire server</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { max-width: 42rem; margin: 3rem auto; padding: 0 1rem; }
  code { font-size: 0.95em; }
  pre { padding: 0.75rem; overflow-x: auto; border: 1px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: 6px; }
</style>
</head>
<body>
<main>
<h1>Quire server</h1>
<p>This is a Quire server: a self-hosted implementation of the Documentation Workspace Management
API, with organizations, spaces, change requests, comments and search, stored in SQLite.</p>
<h2>The API</h2>
<p>Every operation is under <code>${url}/v1</code> and needs a bearer token
(<code>Authorization: Bearer &lt;token&gt;</code>). The published <code>@gitbook/api</code>
client talks to it unchanged.</p>
<pre><code>curl -H "Authorization: Bearer &lt;token&gt;" ${url}/v1/user</code></pre>
<h2>Read it in a browser</h2>
<p><a href="${url}/app/sign-in">Sign in with an API token</a> to read
<a href="${url}/app">your organizations</a>, their spaces, pages and change requests (with
their diffs). Every <code>urls.app</code> address the API returns opens there.</p>
<h2>Sync a folder with the Quire desktop client</h2>
<p>Quire mirrors spaces into a folder of Markdown files laid out like Git Sync, and pushes your
edits back as change requests:</p>
<pre><code>npx quire login --server ${url} --token &lt;token&gt; --folder ~/Docs
npx quire sync --watch</code></pre>
<p>Visitor-claims tokens from <code>ping</code> verify with the keys at
<a href="${url}${JWKS_PATH}"><code>${JWKS_PATH}</code></a>.</p>
</main>
</body>
</html>
`;
}

/**
 * `GET /` answers a browser with a page saying what this server is, instead of the API's 401:
 * public, static, nothing of any organization on it.
 */
export function homeRoutes(app: TypedApp, ctx: ServerContext): void {
  app.get('/', { config: { public: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(homePage(ctx.urls.root)),
  );
}
