/**
 * Markdown work for many bodies at once, on the CPU pool: documents and links of the bodies a
 * response needs, computed in jobs of bounded size, each result kept per body so a body is
 * converted once however many revisions and requests share it.
 *
 * One pathological body never fails a response that needs many: a job over budget is split
 * into one job per body, and a body that is still over budget alone gets a fallback (its
 * document as plain text, no links), remembered so later requests do not spend the budget again.
 */
import type { JSONDocument } from '@gitbook/api';
import type { ExtractedLink } from '../content/markdown-links';
import { plainTextDocument } from '../content/plain-text-document';
import { BoundedCache } from '../resources/links/bounded-cache';
import { CpuJobError, type CpuPool } from './cpu-pool';

/** One body to work on: `key` identifies its content (a body hash), `label` names it in errors. */
export interface MarkdownItem {
  key: string;
  markdown: string;
  label: string;
}

/** Bodies are sent in jobs of about this much text, so a slow body shares a job with few others. */
const JOB_CHARS = 64 * 1024;
const RESULT_ENTRIES = 5000;
/** A body that went over budget gets its fallback at once for this long. */
const FAILURE_TTL_MS = 10 * 60 * 1000;

interface Work<V> {
  namespace: string;
  cache: BoundedCache<V>;
  run(bodies: string[]): Promise<V[]>;
  /** What a body that cannot be processed within the budget contributes. */
  fallback(markdown: string): V;
}

export class MarkdownJobs {
  private readonly documentsByKey = new BoundedCache<JSONDocument>(RESULT_ENTRIES);
  private readonly documentJsonByKey = new BoundedCache<string>(RESULT_ENTRIES);
  private readonly linksByKey = new BoundedCache<readonly ExtractedLink[]>(RESULT_ENTRIES);
  /** Bodies that went over budget alone, until when their fallback is used without trying. */
  private readonly failures = new BoundedCache<number>(1000);

  constructor(private readonly pool: CpuPool) {}

  /**
   * Published documents of page bodies (frontmatter and leading title left out), as JSON text,
   * by key.
   */
  pageDocumentsJson(items: readonly MarkdownItem[]): Promise<Map<string, string>> {
    return this.compute(items, {
      namespace: 'page-documents',
      cache: this.documentJsonByKey,
      run: (bodies) => this.pool.run('page-documents', { bodies }),
      fallback: (markdown) => JSON.stringify(plainTextDocument(markdown)),
    });
  }

  /** Published documents of comment bodies, by key. */
  commentDocuments(items: readonly MarkdownItem[]): Promise<Map<string, JSONDocument>> {
    return this.compute(items, {
      namespace: 'comment-documents',
      cache: this.documentsByKey,
      run: (bodies) => this.pool.run('comment-documents', { bodies }),
      fallback: plainTextDocument,
    });
  }

  /** Link and image targets of each body, by key. */
  links(items: readonly MarkdownItem[]): Promise<Map<string, readonly ExtractedLink[]>> {
    return this.compute(items, {
      namespace: 'links',
      cache: this.linksByKey,
      run: (bodies) => this.pool.run('links', { bodies }),
      fallback: () => [],
    });
  }

  private async compute<V>(items: readonly MarkdownItem[], work: Work<V>): Promise<Map<string, V>> {
    const results = new Map<string, V>();
    const missing = new Map<string, MarkdownItem>();
    for (const item of items) {
      const key = `${work.namespace}:${item.key}`;
      const hit = work.cache.peek(key);
      if (hit !== undefined) results.set(item.key, hit);
      else if ((this.failures.peek(key) ?? 0) > Date.now()) {
        results.set(item.key, work.fallback(item.markdown));
      } else missing.set(item.key, item);
    }
    await Promise.all(chunk([...missing.values()]).map((job) => this.runJob(job, work, results)));
    return results;
  }

  /** Runs one job into `results`; over budget, each body again alone, then its fallback. */
  private async runJob<V>(
    job: readonly MarkdownItem[],
    work: Work<V>,
    results: Map<string, V>,
  ): Promise<void> {
    let values: V[];
    try {
      values = await work.run(job.map((item) => item.markdown));
    } catch (error) {
      if (!(error instanceof CpuJobError)) throw error;
      if (error.failure === 'busy') throw error.toApiError('this request');
      if (job.length > 1) {
        await Promise.all(job.map((item) => this.runJob([item], work, results)));
        return;
      }
      const [item] = job as [MarkdownItem];
      this.failures.set(`${work.namespace}:${item.key}`, Date.now() + FAILURE_TTL_MS);
      results.set(item.key, work.fallback(item.markdown));
      return;
    }
    job.forEach((item, i) => {
      const value = values[i] as V;
      work.cache.set(`${work.namespace}:${item.key}`, value);
      results.set(item.key, value);
    });
  }
}

/** Items in jobs of about JOB_CHARS characters; a larger item is a job of its own. */
function chunk(items: readonly MarkdownItem[]): MarkdownItem[][] {
  const jobs: MarkdownItem[][] = [];
  let current: MarkdownItem[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && size + item.markdown.length > JOB_CHARS) {
      jobs.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.markdown.length;
  }
  if (current.length > 0) jobs.push(current);
  return jobs;
}
