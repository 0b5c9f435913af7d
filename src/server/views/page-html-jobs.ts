/**
 * Page bodies → sanitised HTML on the worker threads, each result kept by body and link targets
 * (the same body renders alike wherever its links point the same way). A body that cannot be
 * rendered within the CPU budget is shown as escaped text, and that is remembered for a while.
 */
import { createHash } from 'node:crypto';
import { BoundedCache } from '../resources/links/bounded-cache';
import { CpuJobError, type CpuPool } from '../workers/cpu-pool';
import type { HrefMap } from './markdown-html';
import { escapeHtml } from './safe-html';

const RESULT_ENTRIES = 2000;

export interface PageHtmlItem {
  /** The body's hash. */
  body: string;
  markdown: string;
  hrefs: HrefMap;
}

export class PageHtmlJobs {
  private readonly cache = new BoundedCache<string>(RESULT_ENTRIES);

  constructor(private readonly cpu: CpuPool) {}

  async render(item: PageHtmlItem): Promise<string> {
    const key = `${item.body}:${createHash('sha256').update(JSON.stringify(item.hrefs)).digest('base64url')}`;
    const hit = this.cache.peek(key);
    if (hit !== undefined) return hit;
    let html: string;
    try {
      [html = ''] = await this.cpu.run('page-html', {
        pages: [{ markdown: item.markdown, hrefs: item.hrefs }],
      });
    } catch (error) {
      if (!(error instanceof CpuJobError) || error.failure === 'busy') throw error;
      html = `<pre>${escapeHtml(item.markdown)}</pre>`;
    }
    this.cache.set(key, html);
    return html;
  }
}
