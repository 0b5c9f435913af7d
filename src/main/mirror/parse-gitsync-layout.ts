/**
 * The files of a space folder in Git Sync layout → the page tree they describe: the inverse of
 * renderGitSyncLayout, and the reader for folders GitBook itself synced.
 *
 * - SUMMARY.md gives the tree: nested bullet lists, `## Group` headings (an `<a id>` anchor pins
 *   the group's slug), `***` ending the last group, `* [Title](path.md "link title")` entries.
 *   The link text is the page title (Git Sync's rule; a differing `# Heading` is reported in
 *   `headingTitle`). Entries pointing outside the space's files (URLs, `page.md#anchor`, a page
 *   listed a second time) are link pages; a fenced YAML block is a computed page.
 * - Page files: frontmatter (YAML only, js-yaml 4's safe schema; any other language refused) and
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
import { buildParsedPages } from './build-parsed-pages';
import { inferSummaryEntries } from '../../shared/gitsync/infer-summary-entries';
import type {
  GitSyncProblem,
  ListSpaceFiles,
  ParsedAsset,
  ParsedGitSyncLayout,
  ParseGitSyncOptions,
  ReadSpaceFile,
} from './parse-gitsync-types';
import { parseSummary, type SummaryEntry } from './parse-summary';
import {
  ASSETS_FOLDER,
  README_PATH,
  SUMMARY_PATH,
} from '../../shared/gitsync/render-gitsync-layout';
import { isPagePath } from './space-file-paths';

export type {
  GitSyncProblem,
  ListSpaceFiles,
  ParsedAsset,
  ParsedCover,
  ParsedGitSyncLayout,
  ParsedPage,
  ParseGitSyncOptions,
  ReadSpaceFile,
} from './parse-gitsync-types';
import { messageOf } from '../../shared/message-of';

export async function parseGitSyncLayout(
  readFile: ReadSpaceFile,
  listFiles: ListSpaceFiles,
  options: ParseGitSyncOptions = {},
): Promise<ParsedGitSyncLayout> {
  const problems: GitSyncProblem[] = [];
  const listed = await listSpaceFiles(listFiles, problems);
  const files = listAssets(listed, options, problems);
  const read = async (path: string): Promise<string | undefined> => {
    try {
      return await readFile(path);
    } catch (error) {
      problems.push({ path, message: `could not read the file: ${messageOf(error)}` });
      return undefined;
    }
  };
  const structure = options.structure ?? { summary: SUMMARY_PATH, readme: README_PATH };
  const summaryText = await read(structure.summary);
  const summary: ParsedGitSyncLayout['summary'] = summaryText === undefined ? 'inferred' : 'found';
  const entries = summaryEntries(summaryText, listed, structure, problems);
  const { pages, claimed } = await buildParsedPages(entries, { read, options, problems });
  const unlisted: string[] = [];
  for (const path of [...listed].sort()) {
    if (!isPagePath(path) || claimed.has(path) || path === structure.summary) continue;
    unlisted.push(path);
    problems.push({
      path,
      message: 'not listed in SUMMARY.md, so it is not a page (Git Sync ignores it too)',
    });
  }
  return { pages, files, problems, unlisted, summary };
}

/** The folder's files as clean relative paths; none (and a problem) when it cannot be listed. */
async function listSpaceFiles(
  listFiles: ListSpaceFiles,
  problems: GitSyncProblem[],
): Promise<Set<string>> {
  const listed = new Set<string>();
  try {
    for (const raw of await listFiles()) {
      const path = normalizeListed(raw);
      if (path !== undefined) listed.add(path);
    }
  } catch (error) {
    problems.push({ path: '', message: `could not list the folder: ${messageOf(error)}` });
  }
  return listed;
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

/** The uploaded files: those directly in `.gitbook/assets/`. */
function listAssets(
  listed: ReadonlySet<string>,
  options: ParseGitSyncOptions,
  problems: GitSyncProblem[],
): ParsedAsset[] {
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
  return files;
}

/** SUMMARY.md's entries, or without it the tree inferred from the folders. */
function summaryEntries(
  summaryText: string | undefined,
  listed: ReadonlySet<string>,
  structure: { summary: string; readme: string },
  problems: GitSyncProblem[],
): SummaryEntry[] {
  const path = structure.summary;
  if (summaryText === undefined) {
    problems.push({
      path,
      message: `${path} is missing; the page tree was inferred from the folders`,
    });
    return inferSummaryEntries(listed, structure);
  }
  const parsed = parseSummary(summaryText);
  for (const { line, message } of parsed.problems) problems.push({ path, message, line });
  return parsed.entries;
}
