/**
 * Finds every link and image target in a page's Markdown and says what it points at, so link
 * checks, backlinks and move-rewrites can work on Git Sync Markdown without rendering it.
 */
import type { Html, Nodes } from 'mdast';
import { decodeEntities } from './html-entities';
import { nodeText } from '../../shared/markdown/node-text';
import { parseMarkdown } from './parse-markdown';
import { safeDecode } from '../../shared/safe-decode';

/**
 * - `page`: a page of the same space — relative `.md` / folder links (`../guide/setup.md`,
 *   `./README.md`, `../publish/embedding/`) or GitBook refs (`/pages/<id>`, `pages/<id>`).
 * - `file`: an uploaded file — `.gitbook/assets/…` paths, other relative paths with a non-`.md`
 *   extension, or `/files/<id>`.
 * - `external`: `http:`, `https:`, `mailto:` and protocol-relative `//host` URLs.
 * - `anchor`: `#fragment` on the same page.
 * - `other`: anything else — `/broken/…` placeholders Git Sync writes for unresolvable refs,
 *   site-absolute paths, `.gitbook/includes/…` (reusable content), other schemes.
 */
export type LinkKind = 'page' | 'file' | 'external' | 'anchor' | 'other';

/** Where in the Markdown a target was written. */
export type LinkSource = 'link' | 'image' | 'definition' | 'html' | 'liquid' | 'frontmatter';

export interface ClassifiedHref {
  kind: LinkKind;
  /** For relative page/file links: the decoded path without query or fragment. */
  path?: string;
  /** For `/pages/<id>` refs (the API also accepts a top-level slug there: try the id first). */
  pageId?: string;
  /** For `/files/<id>` refs. */
  fileId?: string;
  /** The decoded fragment without `#`, when there is one. */
  anchor?: string;
}

export interface ExtractedLink extends ClassifiedHref {
  /** The target as written (entity-decoded for HTML; angle brackets removed). */
  href: string;
  source: LinkSource;
  /** 1-based line and column in the original Markdown, frontmatter included. */
  line: number;
  column: number;
  /** Link text or image alt, when the syntax has one. */
  text?: string;
  /** Markdown link title (`[x](y.md "mention")`), when present. */
  title?: string;
}

/** Lists every link/image target in document order. Never throws on malformed Markdown. */
export function extractLinks(markdown: string): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const { frontmatterLines, cover } = frontmatterOf(markdown);
  if (cover)
    links.push({
      ...classifyHref(cover.value),
      href: cover.value,
      source: 'frontmatter',
      line: cover.line,
      column: 1,
    });

  // Blank out the frontmatter instead of cutting it so every position stays that of the original.
  const lines = markdown.split('\n');
  const body = lines.map((line, i) => (i < frontmatterLines ? '' : line)).join('\n');
  const root = parseMarkdown(body);

  const liquidSpans: Array<[number, number]> = [];

  const visit = (node: Nodes): void => {
    const start = node.position?.start;
    const at = { line: start?.line ?? 1, column: start?.column ?? 1 };
    switch (node.type) {
      case 'link': {
        // GFM autolink literals inside `{% embed url="…" %}` are the tag's target, already listed.
        if (!insideSpan(liquidSpans, start?.offset ?? -1)) {
          links.push(make(node.url, 'link', at, nodeText(node), node.title));
        }
        break;
      }
      case 'image':
        links.push(make(node.url, 'image', at, node.alt ?? undefined, node.title));
        break;
      case 'definition':
        links.push(make(node.url, 'definition', at, node.label ?? undefined, node.title));
        break;
      case 'html':
        links.push(...htmlLinks(node, at));
        break;
      case 'paragraph':
      case 'heading':
      case 'tableCell': {
        const from = node.position?.start.offset;
        const to = node.position?.end.offset;
        if (from !== undefined && to !== undefined) {
          for (const hit of liquidTargets(body.slice(from, to), from, at)) {
            liquidSpans.push([hit.from, hit.to]);
            links.push(hit.link);
          }
        }
        break;
      }
      default:
        break;
    }
  };
  // An explicit stack, not recursion: remark nests 5,000 `>` happily and so must we.
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    visit(node);
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i] as Nodes);
  }
  links.sort((a, b) => a.line - b.line || a.column - b.column);
  return links;
}

/** Whether `offset` lies in one of `spans` (disjoint, in document order). */
function insideSpan(spans: ReadonlyArray<[number, number]>, offset: number): boolean {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (spans[middle]![1] <= offset) low = middle + 1;
    else high = middle;
  }
  const span = spans[low];
  return span !== undefined && offset >= span[0];
}

function make(
  href: string,
  source: LinkSource,
  at: { line: number; column: number },
  text?: string,
  title?: string | null,
): ExtractedLink {
  const link: ExtractedLink = {
    ...classifyHref(href),
    href,
    source,
    line: at.line,
    column: at.column,
  };
  if (text !== undefined && text !== '') link.text = text;
  if (title) link.title = title;
  return link;
}

/** Classifies one link target (see LinkKind). */
export function classifyHref(rawHref: string): ClassifiedHref {
  const href = rawHref.trim();
  if (href === '') return { kind: 'other' };
  if (href.startsWith('#')) return { kind: 'anchor', anchor: safeDecode(href.slice(1)) };
  if (href.startsWith('//')) return { kind: 'external' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme) {
    return scheme === 'http' || scheme === 'https' || scheme === 'mailto'
      ? { kind: 'external' }
      : { kind: 'other' };
  }

  const hashAt = href.indexOf('#');
  const anchor = hashAt >= 0 ? safeDecode(href.slice(hashAt + 1)) : undefined;
  const withAnchor = <T extends ClassifiedHref>(result: T): T =>
    anchor ? { ...result, anchor } : result;
  const pathPart = href.slice(0, hashAt >= 0 ? hashAt : undefined).split('?')[0] ?? '';
  const path = safeDecode(pathPart);

  // GitBook's stable refs: `/pages/<id>` (also written without the leading slash) and `/files/<id>`.
  // One segment may also be a top-level slug (the API accepts both): resolve by id, then by slug.
  const pageRef = /^\/?pages\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (pageRef?.[1] && pageRef[1] !== 'README')
    return withAnchor({ kind: 'page', pageId: pageRef[1] });
  const fileRef = /^\/files\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (fileRef?.[1]) return withAnchor({ kind: 'file', fileId: fileRef[1] });
  if (path.startsWith('/')) {
    // The API also names pages by path: `/pages/<parent-slug>/<slug>`, Git-style
    // `/pages/<slug>.md` and `/pages/<slug>/README.md` (the root page is `/pages/README.md`).
    if (/^\/pages\/./.test(path)) return withAnchor({ kind: 'page', path });
    return withAnchor({ kind: 'other', path });
  }

  const segments = path.split('/');
  if (segments.includes('.gitbook')) {
    const at = segments.indexOf('.gitbook');
    return withAnchor({ kind: segments[at + 1] === 'assets' ? 'file' : 'other', path });
  }
  const last = segments[segments.length - 1] ?? '';
  if (last === '' || last === '.' || last === '..') return withAnchor({ kind: 'page', path });
  if (/\.md$/i.test(last)) return withAnchor({ kind: 'page', path });
  // Another extension is a file in the repository; no extension is a page path written without `.md`.
  if (/\.[A-Za-z0-9]{1,8}$/.test(last)) return withAnchor({ kind: 'file', path });
  return withAnchor({ kind: 'page', path });
}

const ATTRIBUTE = /\s(href|src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/** `href`/`src`/`srcset` attributes of raw HTML — GitBook writes figures, cards and mentions as HTML. */
function htmlLinks(node: Html, at: { line: number; column: number }): ExtractedLink[] {
  const found: ExtractedLink[] = [];
  const positionAt = positionsIn(node.value, at);
  for (const match of node.value.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    const raw = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
    const position = positionAt(match.index ?? 0);
    const targets = name === 'srcset' ? srcsetUrls(raw) : [raw];
    for (const target of targets) {
      if (target !== '') found.push(make(target, 'html', position));
    }
  }
  return found;
}

/**
 * URLs of a `srcset`: comma-separated `url [descriptor]` candidates. Git Sync writes one URL with
 * raw spaces (`x (1).svg`), so only a trailing width/density descriptor is removed, not every word.
 */
export function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(/,\s+/)
    .map((candidate) => candidate.trim().replace(/\s+\d+(?:\.\d+)?[wx]$/i, ''))
    .filter((url) => url !== '');
}

/** The head of a Liquid tag with a target, up to the target's opening quote. */
const LIQUID_HEAD =
  /\{%\s*(?:content-ref|embed|file|include|page-ref)\s+(?:(?:url|src|page)\s*=\s*)?"/y;

/**
 * Targets of `{% embed url="…" %}`-style tags: the head, a quoted target, then anything but `%`
 * up to `%}`. Scanned by hand rather than with one regex: a regex retries from every `{%` and
 * rescans to the same far quote or `%`, which is quadratic in a paragraph of unclosed tags.
 */
function liquidTargets(
  source: string,
  baseOffset: number,
  at: { line: number; column: number },
): Array<{ from: number; to: number; link: ExtractedLink }> {
  const found: Array<{ from: number; to: number; link: ExtractedLink }> = [];
  const positionAt = positionsIn(source, at);
  const nextQuote = nextIndexOf(source, '"');
  const nextPercent = nextIndexOf(source, '%');
  for (let start = source.indexOf('{%'); start >= 0;) {
    LIQUID_HEAD.lastIndex = start;
    const head = LIQUID_HEAD.exec(source);
    if (!head) {
      start = source.indexOf('{%', start + 1);
      continue;
    }
    const target = start + head[0].length;
    const close = nextQuote(target);
    const percent = close < 0 ? -1 : nextPercent(close + 1);
    if (percent < 0) break; // no later tag can close either
    if (source[percent + 1] !== '}') {
      start = source.indexOf('{%', start + 1);
      continue;
    }
    found.push({
      from: baseOffset + start,
      to: baseOffset + percent + 2,
      link: make(source.slice(target, close), 'liquid', positionAt(start)),
    });
    start = source.indexOf('{%', percent + 2);
  }
  return found;
}

/**
 * `text.indexOf(char, from)` for queries that mostly move forward: the last answer is reused
 * while it still holds, so a forward-moving series of queries reads the text once.
 */
function nextIndexOf(text: string, char: string): (from: number) => number {
  let askedFrom = Number.POSITIVE_INFINITY;
  let answer = -1;
  return (from) => {
    if (from < askedFrom || (answer >= 0 && from > answer)) {
      askedFrom = from;
      answer = text.indexOf(char, from);
    }
    return answer;
  };
}

/**
 * Line/column of indices inside a node's text, given the node's own start position. Indices must
 * be asked in increasing order; the text is read once however many are asked.
 */
function positionsIn(
  text: string,
  start: { line: number; column: number },
): (index: number) => { line: number; column: number } {
  let scanned = 0;
  let line = start.line;
  let lastNewline = -1;
  return (index) => {
    for (; scanned < index; scanned++) {
      if (text.charCodeAt(scanned) === 10) {
        line += 1;
        lastNewline = scanned;
      }
    }
    return lastNewline < 0
      ? { line: start.line, column: start.column + index }
      : { line, column: index - lastNewline };
  };
}

/**
 * The frontmatter's line count (so it can be blanked out) and its `cover:` path, found with a line
 * scan rather than a YAML parse: link extraction must not fail on frontmatter the importer rejects.
 */
function frontmatterOf(markdown: string): {
  frontmatterLines: number;
  cover?: { value: string; line: number };
} {
  const lines = markdown.split('\n');
  if (!/^---[a-z]*\r?$/i.test(lines[0] ?? '')) return { frontmatterLines: 0 };
  const close = lines.findIndex((line, i) => i > 0 && /^---\s*$/.test(line));
  if (close < 0) return { frontmatterLines: 0 };
  for (let i = 1; i < close; i += 1) {
    const match = /^cover:\s*(.+?)\s*$/.exec(lines[i] ?? '');
    if (match?.[1]) {
      const value = match[1].replace(/^(['"])(.*)\1$/, '$2');
      return { frontmatterLines: close + 1, cover: { value, line: i + 1 } };
    }
  }
  return { frontmatterLines: close + 1 };
}
