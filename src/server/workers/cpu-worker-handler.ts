/**
 * The CPU-heavy jobs the server runs off its event loop (see CpuPool), and the one function a
 * worker thread calls. Each job is plain data in and plain data out (structured-cloned, or a
 * transferred buffer for PDFs), so the handlers stay pure functions of their input.
 */
import type { JSONDocument } from '@gitbook/api';
import { markdownToDocument } from '../content/markdown-to-document';
import { extractLinks, type ExtractedLink } from '../content/markdown-links';
import { parseJson, type ParsedJson } from '../http/parse-json';
import { mergeText, type TextMerge } from '../content/three-way-merge';
import {
  htmlToMarkdown,
  type ConvertedHtml,
  type HtmlToMarkdownOptions,
} from '../resources/change-requests/html-to-markdown';
import { renderPdf, type PdfInput } from '../resources/change-requests/change-request-pdf';
import { pageDocument } from '../content/page-document';
import { splitPageSections, type PageSection } from '../resources/search/page-sections';
import type { OpenApiParseResult } from '../resources/openapi/parse-openapi';
import type { HrefMap } from '../views/markdown-html';
import type { LineDiffInput, LineDiffPart } from '../views/line-diff';
import type { ImportPlan, PlanInput } from '../gitsync-import/plan-import-tree';
import type { PageFieldsResult } from '../gitsync-import/imported-page-fields';
import type { ExportLayoutEntry, ExportStructure } from '../gitsync-import/export-layout';
import type { GitFetchInput, GitFetchOutput } from '../gitsync-import/git-fetch-task';
import type { GitPushInput, GitPushOutput } from '../gitsync-import/git-push-task';

export interface CpuTasks {
  /** Line merges of (base, ours, theirs) Markdown texts, for merges and updates. */
  'merge-texts': {
    input: { texts: { base: string; ours: string; theirs: string }[] };
    output: TextMerge[];
  };
  /** A large request body (UTF-8 JSON) → its value, parsed as Fastify would. */
  json: { input: { bytes: Uint8Array }; output: ParsedJson };
  /**
   * Page bodies (frontmatter and leading title are page fields) → published documents, as JSON
   * text: responses splice it in, so the event loop never parses or stringifies a document.
   */
  'page-documents': { input: { bodies: string[] }; output: string[] };
  /** Comment bodies (Markdown as written) → published documents. */
  'comment-documents': { input: { bodies: string[] }; output: JSONDocument[] };
  /** Every link and image target of each body. */
  links: { input: { bodies: string[] }; output: ExtractedLink[][] };
  /** A change request's pages → PDF bytes. */
  pdf: { input: PdfInput; output: Uint8Array };
  /** An imported HTML document → Markdown. */
  'html-to-markdown': {
    input: { html: string; options: HtmlToMarkdownOptions };
    output: ConvertedHtml;
  };
  /** Search sections of each page. */
  'page-sections': {
    input: { pages: { title: string; markdown: string }[] };
    output: PageSection[][];
  };
  /** An OpenAPI specification's text → its validated document, or what is wrong with it. */
  'openapi-parse': { input: { text: string }; output: OpenApiParseResult };
  /** Page bodies → sanitised HTML with their links pointed into the views (read-only views). */
  'page-html': { input: { pages: { markdown: string; hrefs: HrefMap }[] }; output: string[] };
  /** Line diffs of page bodies (null: too large to show), for the change-request view. */
  'line-diffs': { input: { pairs: LineDiffInput[] }; output: (LineDiffPart[] | null)[] };
  /** A Git Sync layout's files → the pages and files to import (see planImportTree). */
  'gitsync-import-plan': { input: PlanInput; output: ImportPlan };
  /** Imported pages' Markdown → the page fields their frontmatter sets, or why it cannot. */
  'gitsync-page-fields': { input: { bodies: string[] }; output: PageFieldsResult[] };
  /** A revision as the API serves it (JSON, with Markdown) → its files in Git Sync's layout. */
  'gitsync-export-layout': {
    input: { bytes: Uint8Array; structure?: ExportStructure };
    output: ExportLayoutEntry[];
  };
  /** A repository fetched shallow and collected as an import (on the Git Sync pool only). */
  'git-fetch-tree': { input: GitFetchInput; output: GitFetchOutput };
  /** A space's written layout committed and pushed (on the Git Sync pool only). */
  'git-push-tree': { input: GitPushInput; output: GitPushOutput };
}

export type CpuTaskKind = keyof CpuTasks;

export interface CpuTask<K extends CpuTaskKind = CpuTaskKind> {
  kind: K;
  input: CpuTasks[K]['input'];
}

type Handlers = {
  [K in CpuTaskKind]: (
    input: CpuTasks[K]['input'],
  ) => CpuTasks[K]['output'] | Promise<CpuTasks[K]['output']>;
};

const handlers: Handlers = {
  'merge-texts': ({ texts }) =>
    texts.map(({ base, ours, theirs }) => mergeText(base, ours, theirs)),
  json: ({ bytes }) =>
    parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')),
  'page-documents': ({ bodies }) => bodies.map((body) => JSON.stringify(pageDocument(body))),
  'comment-documents': ({ bodies }) => bodies.map((body) => markdownToDocument(body)),
  links: ({ bodies }) => bodies.map(extractLinks),
  pdf: async (input) => new Uint8Array(await renderPdf(input)),
  'html-to-markdown': ({ html, options }) => htmlToMarkdown(html, options),
  'page-sections': ({ pages }) =>
    pages.map(({ title, markdown }) => splitPageSections(title, markdown)),
  'openapi-parse': async ({ text }) =>
    (await import('../resources/openapi/parse-openapi')).parseOpenApi(text),
  // The views' modules load on their first job, so a worker's start (inside every job's budget)
  // costs the API's jobs nothing more.
  'page-html': async ({ pages }) => {
    const { pageBodyToHtml } = await import('../views/markdown-html');
    return pages.map(({ markdown, hrefs }) => pageBodyToHtml(markdown, hrefs));
  },
  'line-diffs': async ({ pairs }) => (await import('../views/line-diff')).lineDiffs(pairs),
  'gitsync-import-plan': async (input) =>
    (await import('../gitsync-import/plan-import-tree')).planImportTree(input),
  'gitsync-page-fields': async ({ bodies }) => {
    const { pageFieldsOf } = await import('../gitsync-import/imported-page-fields');
    return bodies.map(pageFieldsOf);
  },
  'gitsync-export-layout': async ({ bytes, structure }) =>
    (await import('../gitsync-import/export-layout')).exportLayout(bytes, structure),
  'git-fetch-tree': async (input) =>
    (await import('../gitsync-import/git-fetch-task')).gitFetchTask(input),
  'git-push-tree': async (input) =>
    (await import('../gitsync-import/git-push-task')).gitPushTask(input),
};

/** Runs one job; the worker's entry exports this as its handler. */
export function runCpuTask<K extends CpuTaskKind>(
  task: CpuTask<K>,
): CpuTasks[K]['output'] | Promise<CpuTasks[K]['output']> {
  const handler = handlers[task.kind] as (
    input: CpuTasks[K]['input'],
  ) => CpuTasks[K]['output'] | Promise<CpuTasks[K]['output']>;
  return handler(task.input);
}
