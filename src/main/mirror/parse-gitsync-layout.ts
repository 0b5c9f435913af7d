/**
 * The files of a space folder in Git Sync layout → the page tree they describe: the inverse of
 * renderGitSyncLayout, and the reader for folders GitBook itself synced.
 *
 * - SUMMARY.md gives the tree: nested bullet lists, `## Group` headings (an `<a id>` anchor pins
 *   the group's slug), `***` ending the last group, `* [Title](path.md "link title")` entries.
 *   The link text is the page title (Git Sync's rule; a differing `# Heading` is reported in
 *   `headingTitle`). Entries pointing outside the space's files (URLs, `page.md#anchor`, a page
 *   listed a second time) are link pages; a fenced YAML block is a computed page.
 * - Page files: frontmatter (YAML only, through gray-matter with every other engine refused) and
 *   the Markdown after it, which starts with the `# Title` line as the server's Markdown does.
 * - Markdown files SUMMARY.md does not list are not pages: Git Sync ignores them on import ("I
 *   added a file and nothing happens"). They are returned in `unlisted`, with a problem each.
 * - Without SUMMARY.md, GitBook infers the tree from the folders; so does this (README.md first,
 *   then names in code-point order, a folder's README.md being the folder's page), and says so.
 *
 * Never throws on content: anything it cannot read becomes a problem naming the file. Page
 * identity is not decided here: pages carry their paths, which the caller maps to page ids.
 */
import { posix } from 'node:path';
import type { MirrorComputedSource, MirrorLayout, MirrorPageType } from './gitsync-types';
import { parseSummary, unescapeMarkdown, type SummaryEntry } from './parse-summary';
import {
  findFrontmatterBlock,
  FrontmatterError,
  parseFrontmatterYaml,
  readFrontmatterFields,
  type FrontmatterData,
} from './page-frontmatter';
import { ASSETS_FOLDER, encodePath, README_PATH, SUMMARY_PATH } from './render-gitsync-layout';
import { rewriteLinkTargets } from './rewrite-link-targets';
import { titleSlug } from './title-slug';

type MaybePromise<T> = T | Promise<T>;

/** Reads a file of the space folder by relative POSIX path; undefined when it does not exist. */
export type ReadSpaceFile = (path: string) => MaybePromise<string | undefined>;
/** Every file of the space folder, as relative POSIX paths. */
export type ListSpaceFiles = () => MaybePromise<readonly string[]>;

export interface ParseGitSyncOptions {
  /**
   * The id of the uploaded file an asset name belongs to. When given, relative
   * `.gitbook/assets/<name>` references in page Markdown are rewritten to `/files/<id>` (the
   * inverse of what rendering does), and covers get their file id.
   */
  fileIdForAsset?: (name: string) => string | undefined;
}

export interface ParsedCover {
  /** The `cover:` value as written. */
  src: string;
  /** The `.gitbook/assets/` file it names, when it names one. */
  assetName?: string;
  fileId?: string;
  yPos?: number;
  height?: number;
}

export interface ParsedPage {
  type: MirrorPageType;
  /** SUMMARY.md link text or group heading (frontmatter title or heading for inferred trees). */
  title: string;
  slug: string;
  /** Document pages: the file. */
  path?: string;
  linkTitle?: string;
  /** The text of the page's leading `# Heading`, when it has one. */
  headingTitle?: string;
  /** Link pages: the target as written in SUMMARY.md. */
  href?: string;
  /** Link pages pointing at a page file of this space (`page.md#anchor`). */
  target?: { path: string; anchor?: string };
  computed?: MirrorComputedSource;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: MirrorLayout;
  cover?: ParsedCover;
  /** Every key of the page's frontmatter, unknown ones included. */
  frontmatter?: FrontmatterData;
  /**
   * Document pages: the Markdown after the frontmatter, `# Title` first. When the frontmatter
   * cannot be read, the whole file (so nothing the user wrote is dropped) and a problem.
   */
  markdown?: string;
  /** Listed in SUMMARY.md but the file does not exist (or could not be read). */
  missing?: true;
  pages: ParsedPage[];
}

export interface ParsedAsset {
  path: string;
  name: string;
  fileId?: string;
}

export interface GitSyncProblem {
  path: string;
  message: string;
  line?: number;
}

export interface ParsedGitSyncLayout {
  pages: ParsedPage[];
  files: ParsedAsset[];
  problems: GitSyncProblem[];
  /** Markdown files SUMMARY.md does not list (outside `.gitbook/`). */
  unlisted: string[];
  /** `inferred` when there is no SUMMARY.md and the tree comes from the folders. */
  summary: 'found' | 'inferred';
}

export async function parseGitSyncLayout(
  readFile: ReadSpaceFile,
  listFiles: ListSpaceFiles,
  options: ParseGitSyncOptions = {},
): Promise<ParsedGitSyncLayout> {
  const problems: GitSyncProblem[] = [];
  const listed = new Set<string>();
  try {
    for (const raw of await listFiles()) {
      const path = normalizeListed(raw);
      if (path !== undefined) listed.add(path);
    }
  } catch (error) {
    problems.push({ path: '', message: `could not list the folder: ${messageOf(error)}` });
  }

  const files: ParsedAsset[] = [];
  for (const path of [...listed].sort()) {
    if (!path.startsWith(`${ASSETS_FOLDER}/`)) continue;
    const name = path.slice(ASSETS_FOLDER.length + 1);
    if (name.includes('/')) {
      problems.push({ path, message: `files in folders under ${ASSETS_FOLDER}/ are not synced` });
      continue;
    }
    const fileId = options.fileIdForAsset?.(name);
    files.push(fileId === undefined ? { path, name } : { path, name, fileId });
  }

  const read = async (path: string): Promise<string | undefined> => {
    try {
      return await readFile(path);
    } catch (error) {
      problems.push({ path, message: `could not read the file: ${messageOf(error)}` });
      return undefined;
    }
  };

  const summaryText = await read(SUMMARY_PATH);
  let entries: SummaryEntry[];
  let summary: ParsedGitSyncLayout['summary'] = 'found';
  if (summaryText === undefined) {
    summary = 'inferred';
    problems.push({
      path: SUMMARY_PATH,
      message: 'SUMMARY.md is missing; the page tree was inferred from the folders',
    });
    entries = inferEntries(listed);
  } else {
    const parsed = parseSummary(summaryText);
    for (const { line, message } of parsed.problems) {
      problems.push({ path: SUMMARY_PATH, message, line });
    }
    entries = parsed.entries;
  }

  const claimed = new Set<string>();
  const owners = documentEntries(entries);
  const pages = await buildPages(entries, { read, options, problems, claimed, owners });
  const unlisted: string[] = [];
  for (const path of [...listed].sort()) {
    if (!isPagePath(path) || claimed.has(path)) continue;
    unlisted.push(path);
    problems.push({
      path,
      message: 'not listed in SUMMARY.md, so it is not a page (Git Sync ignores it too)',
    });
  }
  return { pages, files, problems, unlisted, summary };
}

/** A listed path as a clean relative POSIX path, or undefined when it could leave the folder. */
function normalizeListed(raw: string): string | undefined {
  const path = posix.normalize(raw.replace(/\\/g, '/')).replace(/^(?:\.\/)+/, '');
  if (
    path === '' ||
    path === '.' ||
    path.startsWith('../') ||
    path === '..' ||
    path.startsWith('/')
  ) {
    return undefined;
  }
  return path;
}

function isPagePath(path: string): boolean {
  return /\.md$/i.test(path) && path !== SUMMARY_PATH && !path.startsWith('.gitbook/');
}

// --- SUMMARY.md --------------------------------------------------------------------------------

// --- inferred tree -----------------------------------------------------------------------------

/** The tree GitBook infers without SUMMARY.md: README.md first, then by name; folders nest. */
function inferEntries(listed: ReadonlySet<string>): SummaryEntry[] {
  const entries: SummaryEntry[] = [];
  if (listed.has(README_PATH)) entries.push(inferredPage(README_PATH, []));
  entries.push(...inferFolder('', listed));
  return entries;
}

function inferFolder(folder: string, listed: ReadonlySet<string>): SummaryEntry[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  const names = new Set<string>();
  for (const path of listed) {
    if (!path.startsWith(prefix) || !isPagePath(path)) continue;
    names.add(path.slice(prefix.length).split('/')[0] ?? '');
  }
  const entries: SummaryEntry[] = [];
  for (const name of [...names].sort()) {
    const path = prefix + name;
    if (listed.has(path)) {
      if (name !== README_PATH) entries.push(inferredPage(path, []));
      continue;
    }
    const children = inferFolder(path, listed);
    const readme = `${path}/${README_PATH}`;
    // A folder without a README.md has no page of its own: its pages join this level.
    if (listed.has(readme)) entries.push(inferredPage(readme, children));
    else entries.push(...children);
  }
  return entries;
}

function inferredPage(path: string, children: SummaryEntry[]): SummaryEntry {
  return { kind: 'link', title: '', destination: encodePath(path), children };
}

// --- pages -------------------------------------------------------------------------------------

interface BuildContext {
  read(path: string): Promise<string | undefined>;
  options: ParseGitSyncOptions;
  problems: GitSyncProblem[];
  /** Page files already taken by a document entry. */
  claimed: Set<string>;
  /** For each page file, the entry that is its page (the others are links to it). */
  owners: ReadonlyMap<string, SummaryEntry>;
}

/**
 * A page file SUMMARY.md lists more than once is one page and links to it: which entry is the
 * page? The one sitting where the file's folder says it belongs (`guide/x.md` under
 * `guide/README.md`, in group `guide`, or at the top level for `x.md`), else the first one not
 * known to sit elsewhere, else the first.
 */
function documentEntries(entries: readonly SummaryEntry[]): Map<string, SummaryEntry> {
  const candidates = new Map<string, { entry: SummaryEntry; fits: boolean | undefined }[]>();
  const visit = (list: readonly SummaryEntry[], folder: string | undefined): void => {
    for (const entry of list) {
      if (entry.kind === 'group') {
        visit(entry.children, entry.slug);
        continue;
      }
      let childFolder: string | undefined;
      const target = entry.kind === 'link' ? relativeTarget(entry.destination) : undefined;
      if (target && target.anchor === undefined && isPagePath(target.path)) {
        // `x/README.md` is the page of folder `x`, which sits in x's parent folder.
        const readme = posix.basename(target.path) === README_PATH;
        const own = posix.dirname(target.path);
        const home = readme ? posix.dirname(own) : own;
        const fits = folder === undefined ? undefined : (home === '.' ? '' : home) === folder;
        const list = candidates.get(target.path) ?? [];
        list.push({ entry, fits });
        candidates.set(target.path, list);
        if (target.path !== README_PATH) {
          childFolder = readme ? own : target.path.replace(/\.md$/i, '');
        }
      }
      visit(entry.children, entry.kind === 'computed' ? folder : childFolder);
    }
  };
  visit(entries, '');
  const owners = new Map<string, SummaryEntry>();
  for (const [path, list] of candidates) {
    const owner =
      list.find((c) => c.fits === true) ?? list.find((c) => c.fits !== false) ?? list[0];
    if (owner) owners.set(path, owner.entry);
  }
  return owners;
}

async function buildPages(
  entries: readonly SummaryEntry[],
  ctx: BuildContext,
): Promise<ParsedPage[]> {
  const pages: ParsedPage[] = [];
  for (const entry of entries) {
    const page = await buildPage(entry, ctx);
    if (page) pages.push(page);
  }
  return pages;
}

async function buildPage(entry: SummaryEntry, ctx: BuildContext): Promise<ParsedPage | undefined> {
  if (entry.kind === 'group') {
    return {
      type: 'group',
      title: entry.title,
      slug: entry.slug,
      pages: await buildPages(entry.children, ctx),
    };
  }
  if (entry.kind === 'computed') {
    return {
      type: 'computed',
      title: '',
      slug: '',
      computed: entry.source,
      pages: await buildPages(entry.children, ctx),
    };
  }

  const target = relativeTarget(entry.destination);
  if (target === null) {
    ctx.problems.push({
      path: SUMMARY_PATH,
      message: `"${entry.destination}" points outside the space folder`,
      ...lineOf(entry.line),
    });
    return undefined;
  }
  const linkTitle = entry.linkTitle ? { linkTitle: entry.linkTitle } : {};
  const isPageFile = target !== undefined && isPagePath(target.path);
  if (
    !isPageFile ||
    target.anchor !== undefined ||
    ctx.claimed.has(target.path) ||
    ctx.owners.get(target.path) !== entry
  ) {
    if (target !== undefined && target.path.startsWith('.gitbook/') && /\.md$/i.test(target.path)) {
      ctx.problems.push({
        path: SUMMARY_PATH,
        message: `"${entry.destination}" is inside .gitbook/, which holds no pages`,
        ...lineOf(entry.line),
      });
    }
    // A link to an uploaded file becomes a file ref when its id is known, as rendering expects.
    const assetName = target === undefined ? undefined : assetOfPath(target.path);
    const fileId = assetName === undefined ? undefined : ctx.options.fileIdForAsset?.(assetName);
    return {
      type: 'link',
      title: entry.title,
      slug: titleSlug(entry.title),
      ...linkTitle,
      href: fileId === undefined ? entry.destination : `/files/${fileId}`,
      ...(isPageFile && target
        ? { target: target.anchor === undefined ? { path: target.path } : target }
        : {}),
      pages: await buildPages(entry.children, ctx),
    };
  }

  const path = target.path;
  ctx.claimed.add(path);
  const text = await ctx.read(path);
  const page: ParsedPage = {
    type: 'document',
    title: entry.title,
    slug: '',
    path,
    ...linkTitle,
    pages: [],
  };
  if (text === undefined) {
    page.missing = true;
    ctx.problems.push({
      path,
      message: 'listed in SUMMARY.md but the file does not exist',
      ...(entry.line !== undefined ? { line: entry.line } : {}),
    });
  } else {
    readPageFile(page, text.replace(/^\uFEFF/, ''), ctx);
  }
  if (page.title === '') page.title = page.headingTitle ?? posix.basename(path, '.md');
  page.pages = await buildPages(entry.children, ctx);
  page.slug = slugOfPath(path, page.title, page.pages);
  return page;
}

/**
 * A SUMMARY.md destination relative to the space root: undefined when it is not a relative path
 * (a URL, `/pages/…`, `#anchor`), null when it climbs out of the folder.
 */
function relativeTarget(destination: string): { path: string; anchor?: string } | null | undefined {
  if (destination === '' || /^[a-z][a-z0-9+.-]*:/i.test(destination) || /^[/#]/.test(destination)) {
    return undefined;
  }
  const hash = destination.indexOf('#');
  const anchor = hash === -1 ? undefined : safeDecode(destination.slice(hash + 1));
  const pathPart = (hash === -1 ? destination : destination.slice(0, hash)).split('?')[0] ?? '';
  const path = posix.normalize(safeDecode(pathPart));
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return null;
  const clean = path.replace(/^\.\//, '');
  return anchor === undefined ? { path: clean } : { path: clean, anchor };
}

/**
 * A page's slug is its file's (or folder's) name. The space's README.md does not show its slug,
 * except through the folder its children live in; without children it is the title's.
 */
function slugOfPath(path: string, title: string, children: readonly ParsedPage[]): string {
  if (path === README_PATH) {
    for (const child of children) {
      if (child.type !== 'document' || child.path === undefined) continue;
      const own = posix.dirname(child.path);
      const home = posix.basename(child.path) === README_PATH ? posix.dirname(own) : own;
      if (home !== '.' && !home.includes('/')) return home;
    }
    return titleSlug(title);
  }
  if (posix.basename(path) === README_PATH) return posix.basename(posix.dirname(path));
  return posix.basename(path).replace(/\.md$/i, '');
}

function readPageFile(page: ParsedPage, text: string, ctx: BuildContext): void {
  const path = page.path ?? '';
  const block = findFrontmatterBlock(text);
  let markdown = text;
  let readable = true;
  if (block) {
    try {
      if (block.language !== '' && block.language !== 'yaml' && block.language !== 'yml') {
        throw new FrontmatterError(
          `frontmatter language "${block.language}" is not supported; use YAML`,
        );
      }
      applyFrontmatter(page, parseFrontmatterYaml(block.yaml), ctx);
      markdown = block.body.replace(/^(?:[ \t]*\r?\n)+/, '');
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      ctx.problems.push({ path, message: error.message });
      readable = false;
    }
  }
  const heading = leadingHeading(markdown);
  if (heading !== undefined) page.headingTitle = heading;
  const fileIdForAsset = ctx.options.fileIdForAsset;
  // A file whose frontmatter cannot be read is kept exactly as written until the user fixes it.
  if (fileIdForAsset && readable) {
    markdown = rewriteLinkTargets(markdown, (target) => {
      const name = assetNameOf(target, path);
      const id = name === undefined ? undefined : fileIdForAsset(name);
      return id === undefined ? undefined : `/files/${id}`;
    });
  }
  page.markdown = markdown;
}

function applyFrontmatter(page: ParsedPage, data: FrontmatterData, ctx: BuildContext): void {
  const path = page.path ?? '';
  const fields = readFrontmatterFields(data);
  for (const message of fields.problems) ctx.problems.push({ path, message });
  page.frontmatter = data;
  if (fields.description !== undefined) page.description = fields.description;
  if (fields.icon !== undefined) page.icon = fields.icon;
  if (fields.emoji !== undefined) page.emoji = fields.emoji;
  if (fields.hidden !== undefined) page.hidden = fields.hidden;
  if (fields.noIndex !== undefined) page.noIndex = fields.noIndex;
  if (fields.noRobotsIndex !== undefined) page.noRobotsIndex = fields.noRobotsIndex;
  if (fields.layout !== undefined) page.layout = fields.layout;
  if (page.title === '' && fields.title !== undefined) page.title = fields.title;
  if (fields.cover !== undefined) {
    const cover: ParsedCover = { src: fields.cover };
    const assetName = assetNameOf(fields.cover, path);
    if (assetName !== undefined) {
      cover.assetName = assetName;
      const fileId = ctx.options.fileIdForAsset?.(assetName);
      if (fileId !== undefined) cover.fileId = fileId;
    }
    if (fields.coverY !== undefined) cover.yPos = fields.coverY;
    if (fields.coverHeight !== undefined) cover.height = fields.coverHeight;
    page.cover = cover;
  }
}

/** The `.gitbook/assets/` file a reference written in the page at `pagePath` names, if any. */
function assetNameOf(reference: string, pagePath: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || /^[/#]/.test(reference)) return undefined;
  const pathPart = reference.split('#')[0]?.split('?')[0] ?? '';
  return assetOfPath(posix.join(posix.dirname(pagePath), safeDecode(pathPart)));
}

/** The asset name of a path from the space root, when it is a file of `.gitbook/assets/`. */
function assetOfPath(path: string): string | undefined {
  const resolved = posix.normalize(path);
  if (!resolved.startsWith(`${ASSETS_FOLDER}/`)) return undefined;
  const name = resolved.slice(ASSETS_FOLDER.length + 1);
  return name === '' || name.includes('/') ? undefined : name;
}

/** The text of a leading ATX `# Heading` line, escapes resolved and closing hashes removed. */
function leadingHeading(markdown: string): string | undefined {
  const line = /^ {0,3}#(?:[ \t]+([^\r\n]*?))?(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!line) return undefined;
  const text = unescapeMarkdown(line[1] ?? '').trim();
  return text === '' ? undefined : text;
}

// --- helpers -----------------------------------------------------------------------------------

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
