import { posix } from 'node:path';
import type { GitSyncProblem, ParsedPage, ParseGitSyncOptions } from './parse-gitsync-types';
import type { SummaryEntry } from './parse-summary';
import { readPageFile } from './read-page-file';
import { README_PATH, SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { assetOfPath, isPagePath, relativeTarget } from './space-file-paths';
import { titleSlug } from './title-slug';

export interface BuildPagesInput {
  read(path: string): Promise<string | undefined>;
  options: ParseGitSyncOptions;
  problems: GitSyncProblem[];
}

interface BuildContext extends BuildPagesInput {
  /** Page files already taken by a document entry. */
  claimed: Set<string>;
  /** For each page file, the entry that is its page (the others are links to it). */
  owners: ReadonlyMap<string, SummaryEntry>;
}

/**
 * SUMMARY.md entries → the page tree, reading each page file; also the page files the tree
 * claimed (those it does not are not pages).
 */
export async function buildParsedPages(
  entries: readonly SummaryEntry[],
  input: BuildPagesInput,
): Promise<{ pages: ParsedPage[]; claimed: ReadonlySet<string> }> {
  const readme = input.options.structure?.readme ?? README_PATH;
  const owners = documentEntries(entries, readme);
  const ctx: BuildContext = { ...input, claimed: new Set(), owners };
  const pages = await buildPages(entries, ctx);
  return { pages, claimed: ctx.claimed };
}

/**
 * A page file SUMMARY.md lists more than once is one page and links to it: which entry is the
 * page? The one sitting where the file's folder says it belongs (`guide/x.md` under
 * `guide/README.md`, in group `guide`, or at the top level for `x.md`), else the first one not
 * known to sit elsewhere, else the first.
 */
function documentEntries(
  entries: readonly SummaryEntry[],
  rootReadme: string,
): Map<string, SummaryEntry> {
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
        if (target.path !== rootReadme && target.path !== README_PATH) {
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
  if (
    target === undefined ||
    !isPagePath(target.path) ||
    target.anchor !== undefined ||
    ctx.claimed.has(target.path) ||
    ctx.owners.get(target.path) !== entry
  ) {
    return buildLinkPage(entry, target, ctx);
  }
  return buildDocumentPage(entry, target.path, ctx);
}

type LinkEntry = Extract<SummaryEntry, { kind: 'link' }>;

/** An entry that is not a page file's own: a URL, an anchor, a page listed again, an upload. */
async function buildLinkPage(
  entry: LinkEntry,
  target: { path: string; anchor?: string } | undefined,
  ctx: BuildContext,
): Promise<ParsedPage> {
  if (target !== undefined && target.path.startsWith('.gitbook/') && /\.md$/i.test(target.path)) {
    ctx.problems.push({
      path: SUMMARY_PATH,
      message: `"${entry.destination}" is inside .gitbook/, which holds no pages`,
      ...lineOf(entry.line),
    });
  }
  const isPageFile = target !== undefined && isPagePath(target.path);
  // A link to an uploaded file becomes a file ref when its id is known, as rendering expects.
  const assetName = target === undefined ? undefined : assetOfPath(target.path);
  const fileId = assetName === undefined ? undefined : ctx.options.fileIdForAsset?.(assetName);
  return {
    type: 'link',
    title: entry.title,
    slug: titleSlug(entry.title),
    ...(entry.linkTitle ? { linkTitle: entry.linkTitle } : {}),
    href: fileId === undefined ? entry.destination : `/files/${fileId}`,
    ...(isPageFile && target
      ? { target: target.anchor === undefined ? { path: target.path } : target }
      : {}),
    pages: await buildPages(entry.children, ctx),
  };
}

async function buildDocumentPage(
  entry: LinkEntry,
  path: string,
  ctx: BuildContext,
): Promise<ParsedPage> {
  ctx.claimed.add(path);
  const text = await ctx.read(path);
  const page: ParsedPage = {
    type: 'document',
    title: entry.title,
    slug: '',
    path,
    ...(entry.linkTitle ? { linkTitle: entry.linkTitle } : {}),
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
  page.slug = slugOfPath(path, page.title, page.pages, ctx.options.structure?.readme);
  return page;
}

/**
 * A page's slug is its file's (or folder's) name. The space's README.md (or `structure.readme`)
 * does not show its slug, except through the folder its children live in; without children it is
 * the title's.
 */
function slugOfPath(
  path: string,
  title: string,
  children: readonly ParsedPage[],
  rootReadme = README_PATH,
): string {
  if (path === rootReadme || path === README_PATH) {
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

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
