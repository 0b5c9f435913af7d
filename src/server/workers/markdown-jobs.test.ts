import { afterEach, describe, expect, it } from 'vitest';
import { markdownToDocument } from '../content/markdown-to-document';
import { plainTextDocument } from '../content/plain-text-document';
import { CpuPool, defaultCpuPoolOptions } from './cpu-pool';
import { MarkdownJobs } from './markdown-jobs';

let pool: CpuPool | undefined;
afterEach(async () => {
  await pool?.close();
});

/** A pool whose jobs are counted by kind and body. */
function countingPool(budgetMs: number) {
  const created = new CpuPool(defaultCpuPoolOptions({ budgetMs, threads: 2 }));
  const bodiesRun: string[][] = [];
  const run = created.run.bind(created);
  created.run = (kind, input) => {
    if ('bodies' in input) bodiesRun.push((input as { bodies: string[] }).bodies);
    return run(kind, input);
  };
  pool = created;
  return { pool: created, bodiesRun };
}

describe('MarkdownJobs', () => {
  it('converts bodies on worker threads and converts each body once', async () => {
    const { pool: cpu, bodiesRun } = countingPool(30_000);
    const jobs = new MarkdownJobs(cpu);
    const items = ['a *b*', 'c'].map((markdown, i) => ({ key: `k${i}`, markdown, label: `p${i}` }));
    const first = await jobs.commentDocuments(items);
    expect(first.get('k0')).toEqual(markdownToDocument('a *b*'));
    expect(first.get('k1')).toEqual(markdownToDocument('c'));
    await jobs.commentDocuments(items);
    expect(bodiesRun.flat()).toEqual(['a *b*', 'c']);
  });

  it('gives a body over budget its plain text, the others their documents, and remembers', async () => {
    // A first job on a cold worker pays its start-up: warm it with a generous budget first.
    const { pool: cpu, bodiesRun } = countingPool(30_000);
    await new MarkdownJobs(cpu).commentDocuments([{ key: 'w', markdown: 'warm', label: 'w' }]);
    cpu.options.budgetMs = 150;
    const jobs = new MarkdownJobs(cpu);
    const slow = `${'*a'.repeat(40_000)}\n\nend`;
    const items = [
      { key: 'fine', markdown: 'fine *text*', label: 'fine' },
      { key: 'slow', markdown: slow, label: 'slow' },
    ];
    const documents = await jobs.commentDocuments(items);
    expect(documents.get('fine')).toEqual(markdownToDocument('fine *text*'));
    expect(documents.get('slow')).toEqual(plainTextDocument(slow));
    const runs = bodiesRun.length;
    const again = await jobs.commentDocuments(items);
    expect(again.get('slow')).toEqual(plainTextDocument(slow));
    expect(bodiesRun.length).toBe(runs);
    // Links of the slow body are none rather than a failed list.
    const links = await jobs.links([{ key: 'slow', markdown: slow, label: 'slow' }]);
    expect(links.get('slow')).toEqual([]);
  });
});
