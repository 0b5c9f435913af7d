/**
 * A Git Sync layout's files → the pages and files of the space it describes: the server's side of
 * `quire import` and of git import. Pure (runs on a CPU worker): ids are made here so Markdown can
 * reference them, and the caller stores the bodies and file bytes.
 *
 * - `.gitbook.yaml` at the archive's top decides the docs' root, the summary's and the first
 *   page's names, and the redirects.
 * - SUMMARY.md gives the tree in order: groups, pages at any depth, link pages (URLs, anchors, a
 *   page listed again). The link text is the title (Git Sync's rule).
 * - Without SUMMARY.md the tree is inferred from the folders as Git Sync does (first page, then
 *   names in order, a folder's README.md its page); titles come from each page's first heading.
 * - A page's slug is its file's name (`x.md` → `x`, `x/README.md` → `x`), so a mirror of the space
 *   writes the same paths (its fields are read from its frontmatter later: addPageFields).
 * - Relative links to page files and to `.gitbook/assets/` files become `/pages/<id>[#anchor]` and
 *   `/files/<id>`, as the desktop's push sends them; anything else stays as written.
 */
import { posix } from 'node:path';
import { inferSummaryEntries } from '../../shared/gitsync/infer-summary-entries';
import { rewriteLinkTargets } from '../../shared/gitsync/rewrite-link-targets';
import { titleSlug } from '../../shared/gitsync/title-slug';
import { safeDecode } from '../../shared/safe-decode';
import { pageTitleProblem } from '../http/text-schemas';
import { newId } from '../ids';
import {
  DEFAULT_GITBOOK_CONFIG,
  readGitBookConfig,
  type GitBookConfig,
} from '../../shared/gitsync/gitbook-config';
import type { ImportedFields } from './imported-page-fields';
import { firstHeading } from './first-heading';
import { summaryEntries, type SummaryEntry } from './summary-entries';

export interface PlanInput {
  /** Markdown and `.gitbook.yaml` files by archive path, as UTF-8 bytes. */
  texts: { path: string; bytes: Uint8Array }[];
  /** Every asset's archive path. */
  assets: string[];
}

export interface PlannedPage extends ImportedFields {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  href?: string;
  /** Document pages: the stored Markdown (frontmatter and heading as written). */
  markdown?: string;
  /** Document pages: the file it comes from (for problems; not stored). */
  source?: string;
  pages: PlannedPage[];
}

export interface PlannedFile {
  id: string;
  /** Archive path of its bytes. */
  path: string;
  name: string;
}

export interface ImportProblem {
  path: string;
  message: string;
  line?: number;
}

export type ImportPlan =
  | {
      pages: PlannedPage[];
      files: PlannedFile[];
      problems: ImportProblem[];
      config: GitBookConfig;
      /** `.gitbook.yaml` exactly as written, when the layout has one. */
      configText?: string;
    }
  /** The layout cannot be imported at all (an unreadable or unsafe `.gitbook.yaml`). */
  | { refused: ImportProblem };

const ASSETS = '.gitbook/assets/';

export function planImportTree(input: PlanInput): ImportPlan {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const problems: ImportProblem[] = [];
  const texts = new Map<string, string>();
  for (const { path, bytes } of input.texts) {
    try {
      texts.set(path, decoder.decode(bytes).replace(/^\uFEFF/, ''));
    } catch {
      problems.push({ path, message: 'is not UTF-8 text; skipped' });
    }
  }
  let config = DEFAULT_GITBOOK_CONFIG;
  const configPath = ['.gitbook.yaml', '.gitbook.yml'].find((path) => texts.has(path));
  if (configPath !== undefined) {
    const read = readGitBookConfig(texts.get(configPath) ?? '');
    if ('problem' in read) return { refused: { path: configPath, message: read.problem } };
    config = read;
  }
  const inRoot = (path: string) =>
    path.startsWith(config.root) ? path.slice(config.root.length) : undefined;
  const pageTexts = new Map<string, string>();
  for (const [path, text] of texts) {
    const relative = inRoot(path);
    if (relative !== undefined && !relative.startsWith('.gitbook')) pageTexts.set(relative, text);
  }
  const files: PlannedFile[] = [];
  const fileIds = new Map<string, string>();
  for (const path of [...input.assets].sort()) {
    const relative = inRoot(path);
    if (relative === undefined || !relative.startsWith(ASSETS)) continue;
    const name = relative.slice(ASSETS.length);
    if (name.includes('/')) {
      problems.push({ path, message: `files in folders under ${ASSETS} are not imported` });
      continue;
    }
    const id = newId();
    files.push({ id, path, name });
    fileIds.set(relative, id);
  }
  const entries = tableOfContents(pageTexts, config, problems);
  const builder = new TreeBuilder(pageTexts, fileIds, config, problems);
  const pages = builder.build(entries);
  for (const path of [...pageTexts.keys()].sort()) {
    if (builder.claimed.has(path)) continue;
    problems.push({
      path: config.root + path,
      message: 'is not listed in SUMMARY.md, so it is not a page (Git Sync ignores it too)',
    });
  }
  const configText = configPath === undefined ? undefined : texts.get(configPath);
  return { pages, files, problems, config, ...(configText === undefined ? {} : { configText }) };
}

/** SUMMARY.md's entries (taken out of the page files), or the tree inferred from the folders. */
function tableOfContents(
  pageTexts: Map<string, string>,
  config: GitBookConfig,
  problems: ImportProblem[],
): SummaryEntry[] {
  const summaryText = pageTexts.get(config.summary);
  if (summaryText === undefined) {
    problems.push({
      path: config.root + config.summary,
      message: 'is missing; the page tree was inferred from the folders (as Git Sync does)',
    });
    return inferSummaryEntries(new Set(pageTexts.keys()), config);
  }
  pageTexts.delete(config.summary);
  const summary = summaryEntries(summaryText);
  for (const problem of summary.problems) {
    problems.push({ path: config.root + config.summary, ...problem });
  }
  return summary.entries;
}

class TreeBuilder {
  readonly claimed = new Set<string>();
  private readonly pageIds = new Map<string, string>();
  private readonly documents: { page: PlannedPage; path: string; text: string }[] = [];

  constructor(
    private readonly texts: ReadonlyMap<string, string>,
    private readonly fileIds: ReadonlyMap<string, string>,
    private readonly config: GitBookConfig,
    private readonly problems: ImportProblem[],
  ) {}

  build(entries: readonly SummaryEntry[]): PlannedPage[] {
    const pages = this.pages(entries);
    // Bodies last: a link may name any page of the tree, including ones listed after it. Page
    // fields are read from them afterwards, in jobs of bounded size (see addPageFields).
    for (const { page, path, text } of this.documents) {
      page.markdown = this.references(text, path);
      page.source = this.config.root + path;
    }
    return pages;
  }

  private pages(entries: readonly SummaryEntry[]): PlannedPage[] {
    return entries.flatMap((entry) => this.page(entry));
  }

  private page(entry: SummaryEntry): PlannedPage[] {
    const id = newId();
    if (entry.kind === 'computed') return this.pages(entry.children);
    if (entry.kind === 'group') {
      const pages = this.pages(entry.children);
      const title = validTitle(entry.title) ?? 'Group';
      return [{ id, type: 'group', title, slug: entry.slug, pages }];
    }
    const path = pagePath(entry.destination);
    const text = path === undefined ? undefined : this.texts.get(path);
    if (path === undefined || this.claimed.has(path) || text === undefined) {
      if (path !== undefined && !this.claimed.has(path) && /\.md$/i.test(path)) {
        this.problems.push({
          path: this.config.root + path,
          message: `is listed in ${this.config.summary} (line ${entry.line}) but missing; its sub-pages move up`,
        });
        return this.pages(entry.children);
      }
      const title = validTitle(entry.title) ?? (validTitle(entry.destination) || 'Link');
      const pages = this.pages(entry.children);
      return [{ id, type: 'link', title, slug: titleSlug(title), href: entry.destination, pages }];
    }
    this.claimed.add(path);
    this.pageIds.set(path, id);
    const page: PlannedPage = { id, type: 'document', title: '', slug: '', pages: [] };
    page.title =
      validTitle(entry.title) ?? validTitle(firstHeading(text)) ?? posix.basename(path, '.md');
    page.pages = this.pages(entry.children);
    page.slug = slugOfPath(path, page.title, page.pages, this.pageIds, this.config.readme);
    this.documents.push({ page, path, text });
    return [page];
  }

  /** Relative links to page files and assets → the server's references (see module comment). */
  private references(markdown: string, path: string): string {
    return rewriteLinkTargets(markdown, (target) => {
      if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) return undefined;
      const hash = target.indexOf('#');
      const file = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? '' : target.slice(hash);
      const resolved = posix.normalize(posix.join(posix.dirname(path), safeDecode(file)));
      const fileId = this.fileIds.get(resolved);
      if (fileId !== undefined && anchor === '') return `/files/${fileId}`;
      const pageId = this.pageIds.get(resolved);
      return pageId === undefined ? undefined : `/pages/${pageId}${anchor}`;
    });
  }
}

/** A SUMMARY destination naming a page file of the layout: its path from the root. */
function pagePath(destination: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^[/#]/i.test(destination) || destination.includes('#')) return undefined;
  const path = posix.normalize(safeDecode(destination.split('?')[0] ?? ''));
  if (path === '..' || path.startsWith('../') || !/\.md$/i.test(path)) return undefined;
  return path.replace(/^\.\//, '');
}

function validTitle(title: string): string | undefined {
  const trimmed = title.trim();
  return trimmed !== '' && pageTitleProblem(trimmed) === undefined ? trimmed : undefined;
}

/**
 * A page's slug is its file's (or folder's) name. The first page (README.md) shows its slug only
 * through the folder its children live in; without children it is the title's.
 */
function slugOfPath(
  path: string,
  title: string,
  children: readonly PlannedPage[],
  pageIds: ReadonlyMap<string, string>,
  readme: string,
): string {
  if (path === readme || path === 'README.md') {
    const childPaths = new Map([...pageIds].map(([childPath, id]) => [id, childPath]));
    for (const child of children) {
      const childPath = childPaths.get(child.id);
      if (childPath === undefined) continue;
      const own = posix.dirname(childPath);
      const home = posix.basename(childPath) === 'README.md' ? posix.dirname(own) : own;
      if (home !== '.' && !home.includes('/')) return home;
    }
    return titleSlug(title) || 'readme';
  }
  if (posix.basename(path) === 'README.md') return posix.basename(posix.dirname(path));
  return posix.basename(path).replace(/\.md$/i, '');
}
