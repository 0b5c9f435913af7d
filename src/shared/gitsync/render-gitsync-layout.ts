/**
 * A space's content → the files of its mirror folder, laid out exactly as GitBook's Git Sync lays
 * out a synced repository, so a Quire mirror and a GitBook-synced repository look alike and a
 * space round-trips through its files without churn.
 *
 * - The first document page (at the top level or first in a top-level group) is `README.md`, or
 *   the file `.gitbook.yaml`'s `structure.readme` names (options.readmePath).
 * - A document page with children is `<slug>/README.md`, its children inside `<slug>/`; any
 *   other document page is `<slug>.md`. Groups have no file: their pages live in a folder named
 *   after the group's slug (GitBook's docs: `## Create content` → `create-content/…`).
 * - `SUMMARY.md`: `# Table of contents`, `* [Title](path.md "link title")` bullets nested by two
 *   spaces, `## Group` headings (with an anchor pinning a slug the title does not give), `***`
 *   before top-level pages that follow a group, link pages as `* [Title](url)`, computed pages
 *   as a fenced YAML block.
 * - Files are `.gitbook/assets/<name>`, a clash suffixed ` (1)`, ` (2)` as GitBook does.
 * - A page file is its frontmatter (only keys with a value; see page-frontmatter) and then the
 *   page's Markdown as the server returns it, whose `# Title` is not repeated. `/files/<id>`
 *   references in the Markdown become relative asset paths, `/pages/<id>` references relative
 *   links as Git Sync writes them (`dir/` for a page with children, `x.md` otherwise) or as the
 *   user wrote them (options.writtenText); relative paths the server already returns are kept
 *   byte for byte.
 *
 * Pure and deterministic: the same space (and link forms) always gives the same files, in tree
 * order. Names come from server strings, so each goes through the mirror's name allocator
 * (safeFileName).
 */
import { posix } from './posix-path';
import { dumpYaml, type YamlValue } from './frontmatter-yaml';
import type { MirrorComputedSource, MirrorFile, MirrorPage, MirrorSpace } from './gitsync-types';
import { LAYOUT_RESERVED_NAMES, NameAllocator } from './name-allocator';
import {
  composeFrontmatter,
  FrontmatterError,
  formatFrontmatter,
  sameFrontmatter,
  splitFrontmatter,
  type SplitFrontmatter,
} from './page-frontmatter';
import { layoutLinkForms, pageRefRenderer } from './page-link-forms';
import { encodePath } from './page-link-paths';
import { markdownDestination, rewriteLinkTargets } from './rewrite-link-targets';
import { titleSlug } from './title-slug';

export { encodePath } from './page-link-paths';

export const README_PATH = 'README.md';
export const SUMMARY_PATH = 'SUMMARY.md';
export const ASSETS_FOLDER = '.gitbook/assets';

export type GitSyncEntry =
  | { kind: 'page'; pageId: string; content: string }
  | { kind: 'summary'; content: string }
  | { kind: 'asset'; fileId: string };

export interface GitSyncLayout {
  /** Every file of the space folder by relative POSIX path: SUMMARY.md, pages, then assets. */
  files: Map<string, GitSyncEntry>;
  /** The file of each document page (groups, links and computed pages have none). */
  pagePaths: Map<string, string>;
  /** The file of each uploaded file, under `.gitbook/assets/`. */
  assetPaths: Map<string, string>;
}

export interface RenderLayoutOptions {
  /**
   * The text a page's file was last known with (see pulledTexts), asked only of pages whose
   * Markdown links to pages: the links written there are written again where they still name
   * the same page (see page-link-forms).
   */
  writtenText?: (pageId: string, path: string) => string | undefined;
  /** The first page's file when `.gitbook.yaml` gives another (`structure.readme`, `intro.md`). */
  readmePath?: string;
  /** The table of contents' file when `.gitbook.yaml` gives another (`structure.summary`). */
  summaryPath?: string;
}

export function renderGitSyncLayout(
  space: MirrorSpace,
  options: RenderLayoutOptions = {},
): GitSyncLayout {
  const assetPaths = placeAssets(space.files);
  const summaryPath = options.summaryPath ?? SUMMARY_PATH;
  const pagePaths = placePages(space.pages, options.readmePath ?? README_PATH, summaryPath);
  const layoutFiles = new Set([...pagePaths.values(), ...assetPaths.values()]);
  const isFile = (path: string) => layoutFiles.has(path);
  const pageRefs = pageRefRenderer(pagePaths, isFile);
  const formsOf = layoutLinkForms(pagePaths, isFile);
  const files = new Map<string, GitSyncEntry>();
  files.set(summaryPath, {
    kind: 'summary',
    content: renderSummary(space.pages, { pagePaths, assetPaths }),
  });
  for (const page of documentPages(space.pages)) {
    const path = pagePaths.get(page.id);
    if (path === undefined || files.has(path)) continue;
    files.set(path, {
      kind: 'page',
      pageId: page.id,
      content: renderPageFile(page, path, {
        assetPaths,
        pageRef: pageRefs(path, () => {
          const text = options.writtenText?.(page.id, path);
          return text === undefined ? undefined : formsOf(text, path);
        }),
      }),
    });
  }
  for (const [fileId, path] of assetPaths) files.set(path, { kind: 'asset', fileId });
  return { files, pagePaths, assetPaths };
}

// --- placement ---------------------------------------------------------------------------------

/** A short ASCII extension kept after a clash suffix (`hero (1).png`). */
const ASSET_EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

function placeAssets(files: readonly MirrorFile[]): Map<string, string> {
  const allocator = assetNameAllocator();
  const paths = new Map<string, string>();
  for (const file of files) {
    if (paths.has(file.id)) continue;
    paths.set(file.id, `${ASSETS_FOLDER}/${allocateAssetName(allocator, file.name)}`);
  }
  return paths;
}

/** The allocator of one space's asset names (`names` already taken), in GitBook's clash style. */
export function assetNameAllocator(names: Iterable<string> = []): NameAllocator {
  return new NameAllocator({ reserved: names, suffix: (n) => ` (${n - 1})` });
}

/** The file name under `.gitbook/assets/` of the next asset called `name` (server-side name). */
export function allocateAssetName(allocator: NameAllocator, name: string): string {
  const extension = ASSET_EXTENSION.exec(name)?.[0];
  const split = extension !== undefined && extension.length < name.length;
  return allocator.allocate(
    split ? { stem: name.slice(0, -extension.length), extension } : { stem: name, extension: '' },
  );
}

function placePages(
  pages: readonly MirrorPage[],
  readmePath: string,
  summaryPath: string,
): Map<string, string> {
  const paths = new Map<string, string>();
  const allocators = new Map<string, NameAllocator>();
  const folderOf = (file: string) => (posix.dirname(file) === '.' ? '' : posix.dirname(file));
  const readmeFolder = folderOf(readmePath);
  const allocate = (folder: string, stem: string, extension: string): string => {
    let allocator = allocators.get(folder);
    if (!allocator) {
      // A sub-folder's README.md belongs to the page that owns the folder; the first page's file
      // is no other page's.
      const reserved = folder === '' ? [...LAYOUT_RESERVED_NAMES] : [README_PATH];
      if (folder === readmeFolder) reserved.push(posix.basename(readmePath));
      // A renamed table of contents (`toc.md`) is no page's file either.
      if (folder === folderOf(summaryPath)) reserved.push(posix.basename(summaryPath));
      allocator = new NameAllocator({ reserved });
      allocators.set(folder, allocator);
    }
    return join(folder, allocator.allocate({ stem, extension }));
  };
  const readme = firstDocument(pages);

  const visit = (siblings: readonly MirrorPage[], folder: string): void => {
    for (const page of siblings) {
      if (page.type === 'group') {
        visit(page.pages, allocate(folder, page.slug, ''));
        continue;
      }
      if (page.type !== 'document' || paths.has(page.id)) {
        // Links and computed pages have no file; children they should not have stay beside them.
        visit(page.pages, folder);
        continue;
      }
      const childFolder = page.pages.length > 0 ? allocate(folder, page.slug, '') : folder;
      let path: string;
      if (page === readme) path = readmePath;
      else if (page.pages.length > 0) path = `${childFolder}/${README_PATH}`;
      else path = allocate(folder, page.slug, '.md');
      paths.set(page.id, path);
      visit(page.pages, childFolder);
    }
  };
  visit(pages, '');
  return paths;
}

/** The space's first page: the first document at the top level or directly in a top-level group. */
function firstDocument(pages: readonly MirrorPage[]): MirrorPage | undefined {
  for (const page of pages) {
    if (page.type === 'document') return page;
    if (page.type === 'group') {
      const first = page.pages.find((child) => child.type === 'document');
      if (first) return first;
    }
  }
  return undefined;
}

function* documentPages(pages: readonly MirrorPage[]): Generator<MirrorPage> {
  for (const page of pages) {
    if (page.type === 'document') yield page;
    yield* documentPages(page.pages);
  }
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

// --- SUMMARY.md --------------------------------------------------------------------------------

interface Paths {
  pagePaths: ReadonlyMap<string, string>;
  assetPaths: ReadonlyMap<string, string>;
}

const SUMMARY_HEADING = '# Table of contents';
const INDENT = '  ';
/** Git Sync's separator before top-level pages that follow a group. */
const TOP_LEVEL_SEPARATOR = '***';

function renderSummary(pages: readonly MirrorPage[], paths: Paths): string {
  const blocks = [SUMMARY_HEADING];
  let list: string[] = [];
  const flush = () => {
    if (list.length > 0) blocks.push(list.join('\n'));
    list = [];
  };
  let afterGroup = false;
  for (const page of pages) {
    if (page.type === 'group') {
      flush();
      blocks.push(groupHeading(page));
      summaryEntries(page.pages, 0, paths, list);
      flush();
      afterGroup = true;
      continue;
    }
    if (afterGroup) {
      blocks.push(TOP_LEVEL_SEPARATOR);
      afterGroup = false;
    }
    summaryEntry(page, 0, paths, list);
  }
  flush();
  return `${blocks.join('\n\n')}\n`;
}

function groupHeading(group: MirrorPage): string {
  const heading = `## ${escapeInline(group.title)}`;
  if (group.slug === titleSlug(group.title)) return heading;
  const id = escapeAttribute(group.slug);
  return `${heading} <a href="#${id}" id="${id}"></a>`;
}

function summaryEntries(
  pages: readonly MirrorPage[],
  depth: number,
  paths: Paths,
  out: string[],
): void {
  for (const page of pages) {
    // Groups exist only at the top level; a nested one's pages are listed in its place.
    if (page.type === 'group') summaryEntries(page.pages, depth, paths, out);
    else summaryEntry(page, depth, paths, out);
  }
}

function summaryEntry(page: MirrorPage, depth: number, paths: Paths, out: string[]): void {
  const indent = INDENT.repeat(depth);
  if (page.type === 'computed') {
    out.push(`${indent}* \`\`\`yaml`);
    const yaml = dumpYaml(computedSourceYaml(page.computed ?? { type: '' }));
    for (const line of yaml.slice(0, -1).split('\n'))
      out.push(line === '' ? '' : `${indent}  ${line}`);
    out.push(`${indent}  \`\`\``);
  } else {
    const target =
      page.type === 'document'
        ? encodePath(paths.pagePaths.get(page.id) ?? '')
        : linkTarget(page.href ?? '', paths);
    const title = page.linkTitle ? ` "${page.linkTitle.replace(/[\\"]/g, '\\$&')}"` : '';
    out.push(`${indent}* [${escapeInline(page.title)}](${markdownDestination(target)}${title})`);
  }
  summaryEntries(page.pages, depth + 1, paths, out);
}

/** Git Sync writes a computed page's source with `props` first, then `type`, then the rest. */
function computedSourceYaml(source: MirrorComputedSource): YamlValue {
  const ordered: Record<string, unknown> = {};
  if (source.props !== undefined) ordered['props'] = source.props;
  ordered['type'] = source.type;
  for (const [key, value] of Object.entries(source)) {
    if (!(key in ordered)) ordered[key] = value;
  }
  return ordered as YamlValue;
}

/** A link page's target in SUMMARY.md: page and file refs become paths from the space root. */
function linkTarget(href: string, paths: Paths): string {
  const pageRef = /^\/pages\/([A-Za-z0-9_-]+)(#.*)?$/.exec(href);
  if (pageRef?.[1]) {
    const path = paths.pagePaths.get(pageRef[1]);
    if (path !== undefined) return encodePath(path) + (pageRef[2] ?? '');
  }
  const fileRef = /^\/files\/([A-Za-z0-9_-]+)$/.exec(href);
  if (fileRef?.[1]) {
    const path = paths.assetPaths.get(fileRef[1]);
    if (path !== undefined) return encodePath(path);
  }
  return href;
}

/** Link text and heading text: backslash-escapes what would otherwise start Markdown syntax. */
function escapeInline(text: string): string {
  return escapeControls(text.replace(/[\r\n]+/g, ' ').replace(/[\\[\]<`]/g, '\\$&'));
}

/**
 * Control characters in a title (a server may hold them from before it refused them) are
 * written as numeric character references: the file stays plain text, and unescapeMarkdown reads
 * them back as the same characters, so the title does not change by a round trip.
 */
function escapeControls(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    // C0 controls (tab and line breaks are handled by the callers), DEL and C1.
    const control = (code < 0x20 && char !== '\t') || (code >= 0x7f && code <= 0x9f);
    out += control ? `&#x${code.toString(16).toUpperCase()};` : char;
  }
  return out;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

// --- page files --------------------------------------------------------------------------------

function renderPageFile(
  page: MirrorPage,
  path: string,
  {
    assetPaths,
    pageRef,
  }: {
    assetPaths: ReadonlyMap<string, string>;
    /** `/pages/<id>[#anchor]` → the relative link to write (see pageRefRenderer). */
    pageRef: (target: string) => string | undefined;
  },
): string {
  const markdown = page.markdown ?? '';
  let split: SplitFrontmatter;
  try {
    split = splitFrontmatter(markdown);
  } catch (error) {
    // Markdown the server keeps with broken frontmatter is shown as it is, so the user can fix it.
    if (error instanceof FrontmatterError) return markdown;
    throw error;
  }
  const folder = posix.dirname(path);
  const relative = (target: string) => encodePath(posix.relative(folder, target));

  let coverSource: string | undefined;
  const ref = page.cover?.ref;
  if (ref?.kind === 'url') coverSource = ref.url;
  else if (ref?.kind === 'file') {
    const asset = assetPaths.get(ref.file);
    coverSource = asset === undefined ? `/files/${ref.file}` : relative(asset);
  }
  const data = composeFrontmatter(page, {
    ...(split.data ? { existing: split.data } : {}),
    ...(coverSource !== undefined ? { coverSource } : {}),
  });
  // Frontmatter that already says exactly this keeps its own bytes (quoting, folding) untouched.
  const frontmatter =
    split.data && sameFrontmatter(split.data, data)
      ? split.raw.endsWith('\n')
        ? split.raw
        : `${split.raw}\n`
      : formatFrontmatter(data);

  // Server references (`/files/<id>`, `/pages/<id>[#anchor]`) become the relative paths Git Sync
  // writes (a page with children by its folder); anything else (already relative, external,
  // unknown ids) is left as written.
  const body = rewriteLinkTargets(split.body, (target) => {
    const fileRef = /^\/files\/([A-Za-z0-9_-]+)$/.exec(target);
    if (fileRef?.[1] !== undefined) {
      const asset = assetPaths.get(fileRef[1]);
      return asset === undefined ? undefined : relative(asset);
    }
    return pageRef(target);
  });
  if (frontmatter === '' && split.raw === '') return withTitle(body, page.title);
  return `${frontmatter}${frontmatter === '' ? '' : '\n'}${withTitle(body.replace(/^(?:[ \t]*\r?\n)+/, ''), page.title)}`;
}

/** The Markdown with its `# Title` line; added only when the Markdown does not start with one. */
function withTitle(markdown: string, title: string): string {
  const firstLine = /^(?:[ \t]*\r?\n)*([^\r\n]*)/.exec(markdown)?.[1] ?? '';
  if (/^ {0,3}#(?:[ \t]|$)/.test(firstLine)) return markdown;
  // GitBook escapes an opening bracket in a heading but not the closing one (`\[updated]`).
  const heading = `# ${escapeControls(
    title
      .trim()
      .replace(/[\r\n]+/g, ' ')
      .replace(/[\\[<`]/g, '\\$&'),
  )}`;
  return markdown === '' ? `${heading}\n` : `${heading}\n\n${markdown}`;
}
