/**
 * The views' one stylesheet, served from /app/assets/view.css so the pages need no inline style
 * (their CSP allows style-src 'self' only). Light and dark follow prefers-color-scheme.
 */
export const VIEW_STYLESHEET_PATH = '/app/assets/view.css';

export const VIEW_STYLESHEET = `:root {
  color-scheme: light dark;
  --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --border: #d1d9e0;
  --link: #0550ae; --added: #dafbe1; --removed: #ffebe9; --focus: #0969da;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.55;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --border: #3d444d;
    --link: #4493f8; --added: #12361f; --removed: #4a1619; --focus: #4493f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: 0.25rem 0.5rem; }
header.site { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  padding: 0.6rem 1.25rem; border-bottom: 1px solid var(--border); background: var(--panel); }
header.site .brand { font-weight: 600; text-decoration: none; color: var(--fg); }
header.site form { display: inline; margin: 0; }
nav.crumbs ol { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; margin: 0; padding: 0; }
nav.crumbs li + li::before { content: "/"; color: var(--muted); margin-right: 0.4rem; }
.layout { display: flex; gap: 2rem; max-width: 72rem; margin: 0 auto; padding: 1.5rem 1.25rem; }
nav.tree { flex: 0 0 16rem; font-size: 0.95rem; }
nav.tree ul { list-style: none; margin: 0; padding-left: 0.9rem; }
nav.tree > ul { padding-left: 0; }
nav.tree li { margin: 0.2rem 0; }
nav.tree .group { display: block; margin-top: 0.75rem; font-weight: 600; color: var(--muted);
  text-transform: uppercase; font-size: 0.8rem; letter-spacing: 0.04em; }
nav.tree a[aria-current="page"] { font-weight: 600; color: var(--fg); }
main { flex: 1 1 auto; min-width: 0; }
main.narrow { max-width: 44rem; margin: 2rem auto; padding: 0 1.25rem; }
.meta { color: var(--muted); font-size: 0.9rem; }
.content img { max-width: 100%; }
.content pre, pre.diff { background: var(--panel); border: 1px solid var(--border); border-radius: 6px;
  padding: 0.75rem; overflow-x: auto; }
.content table { border-collapse: collapse; }
.content th, .content td { border: 1px solid var(--border); padding: 0.3rem 0.6rem; }
.content blockquote { margin-left: 0; padding-left: 1rem; border-left: 3px solid var(--border); color: var(--muted); }
.badge { display: inline-block; padding: 0.05rem 0.5rem; border: 1px solid var(--border); border-radius: 1rem;
  font-size: 0.85rem; }
.changes { list-style: none; padding: 0; }
.changes > li { margin: 1.25rem 0; }
pre.diff { padding: 0; line-height: 1.4; }
pre.diff span { display: block; padding: 0 0.75rem; white-space: pre-wrap; }
pre.diff ins { display: block; text-decoration: none; background: var(--added); padding: 0 0.75rem; white-space: pre-wrap; }
pre.diff del { display: block; text-decoration: none; background: var(--removed); padding: 0 0.75rem; white-space: pre-wrap; }
pre.diff .skipped { color: var(--muted); font-style: italic; }
form.sign-in label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
form.sign-in input { width: 100%; padding: 0.5rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--border); border-radius: 6px; }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--border);
  background: var(--panel); color: var(--fg); cursor: pointer; }
form.sign-in button { margin-top: 1rem; }
.error { color: #cf222e; }
@media (max-width: 48rem) { .layout { flex-direction: column; } nav.tree { flex-basis: auto; } }
`;
