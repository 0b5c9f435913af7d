/**
 * Markdown work for many bodies at once, on the CPU pool: documents and links of the bodies a
 * response needs, computed in jobs of bounded size, each result kept per body so a body is
 * converted once however many revisions and requests share it.
 */
import type { JSONDocument } from '@gitbook/api';
import type { ExtractedLink } from '../content/markdown-links';
import { BoundedCache } from '../resources/links/bounded-cache';
import { CpuJobError, type CpuPool } from './cpu-pool';

/** One body to work on: `key` identifies its content (a body hash), `label` names it in errors. */
export interface MarkdownItem {
  key: string;
  markdown: string;
  label: string;
}

/** Bodies are sent in jobs of about this much text, so one large page fails only itself. */
const JOB_CHARS = 256 * 1024;
const RESULT_ENTRIES = 5000;
/** A body that went over budget answers at once for this long instead of burning CPU again. */
const FAILURE_TTL_MS = 10 * 60 * 1000;

type DocumentKind = 'page-documents' | 'comment-documents';

export class MarkdownJobs {
  private readonly documentsByKey = new BoundedCache<JSONDocument>(RESULT_ENTRIES);
  private readonly linksByKey = new BoundedCache<readonly ExtractedLink[]>(RESULT_ENTRIES);
  private readonly failures = new BoundedCache<{ error: CpuJobError; until: number }>(1000);

  constructor(private readonly pool: CpuPool) {}

  /** Published documents of page bodies (frontmatter and leading title left out), by key. */
  pageDocuments(items: readonly MarkdownItem[]): Promise<Map<string, JSONDocument>> {
    return this.documents('page-documents', items);
  }

  /** Published documents of comment bodies, by key. */
  commentDocuments(items: readonly MarkdownItem[]): Promise<Map<string, JSONDocument>> {
    return this.documents('comment-documents', items);
  }

  /** Link and image targets of each body, by key. */
  async links(items: readonly MarkdownItem[]): Promise<Map<string, readonly ExtractedLink[]>> {
    return this.compute(items, this.linksByKey, 'links', 'links', async (bodies) =>
      this.pool.run('links', { bodies }),
    );
  }

  private documents(
    kind: DocumentKind,
    items: readonly MarkdownItem[],
  ): Promise<Map<string, JSONDocument>> {
    return this.compute(items, this.documentsByKey, kind, 'document', (bodies) =>
      this.pool.run(kind, { bodies }),
    );
  }

  private async compute<V>(
    items: readonly MarkdownItem[],
    cache: BoundedCache<V>,
    namespace: string,
    noun: string,
    run: (bodies: string[]) => Promise<V[]>,
  ): Promise<Map<string, V>> {
    const results = new Map<string, V>();
    const missing = new Map<string, MarkdownItem>();
    for (const item of items) {
      const key = `${namespace}:${item.key}`;
      const hit = cache.peek(key);
      if (hit !== undefined) results.set(item.key, hit);
      else {
        this.throwIfFailedRecently(key, item, noun);
        missing.set(item.key, item);
      }
    }
    await Promise.all(
      chunk([...missing.values()]).map(async (job) => {
        let values: V[];
        try {
          values = await run(job.map((item) => item.markdown));
        } catch (error) {
          throw this.failed(error, job, namespace, noun);
        }
        job.forEach((item, i) => {
          const value = values[i] as V;
          cache.set(`${namespace}:${item.key}`, value);
          results.set(item.key, value);
        });
      }),
    );
    return results;
  }

  private throwIfFailedRecently(key: string, item: MarkdownItem, noun: string): void {
    const failure = this.failures.peek(key);
    if (failure && failure.until > Date.now()) {
      throw failure.error.toApiError(`The ${noun} of ${item.label}`);
    }
  }

  /** The API error for a failed job; a lone body that went over budget is remembered. */
  private failed(error: unknown, job: readonly MarkdownItem[], namespace: string, noun: string) {
    if (!(error instanceof CpuJobError)) return error;
    const [only] = job;
    if (job.length === 1 && only && error.failure !== 'busy') {
      this.failures.set(`${namespace}:${only.key}`, { error, until: Date.now() + FAILURE_TTL_MS });
      return error.toApiError(`The ${noun} of ${only.label}`);
    }
    return error.toApiError(`The ${noun} of ${job.length} bodies`);
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
