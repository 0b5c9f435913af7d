import { CpuJobError, type CpuPool } from '../workers/cpu-pool';
import type { PageFieldsResult } from './imported-page-fields';
import type { ImportProblem, PlannedPage } from './plan-import-tree';

/** Markdown per job: a thousand pages never make one job that could outlast the budget. */
const JOB_CHARS = 64 * 1024;
/** Jobs in flight at once, so one import leaves workers for other requests. */
const CONCURRENCY = 2;

/**
 * Sets each imported document's page fields from its frontmatter, read on the CPU workers in
 * jobs of bounded size. A page whose frontmatter cannot be read keeps its Markdown as written,
 * without fields, and gets a problem.
 */
export async function addPageFields(
  cpu: CpuPool,
  pages: readonly PlannedPage[],
  problems: ImportProblem[],
): Promise<void> {
  const documents: PlannedPage[] = [];
  const visit = (list: readonly PlannedPage[]) => {
    for (const page of list) {
      if (page.markdown !== undefined) documents.push(page);
      visit(page.pages);
    }
  };
  visit(pages);
  const batches: PlannedPage[][] = [];
  let size = 0;
  for (const page of documents) {
    const last = batches[batches.length - 1];
    if (last === undefined || size >= JOB_CHARS) {
      batches.push([page]);
      size = 0;
    } else last.push(page);
    size += page.markdown?.length ?? 0;
  }
  let next = 0;
  const worker = async () => {
    while (next < batches.length) await readBatch(cpu, batches[next++]!, problems);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** One job; over budget, one job per page; a page over budget alone is imported without fields. */
async function readBatch(
  cpu: CpuPool,
  batch: readonly PlannedPage[],
  problems: ImportProblem[],
): Promise<void> {
  let results: PageFieldsResult[];
  try {
    results = await cpu.run('gitsync-page-fields', {
      bodies: batch.map((page) => page.markdown ?? ''),
    });
  } catch (error) {
    if (!(error instanceof CpuJobError) || error.failure !== 'over-budget') throw error;
    if (batch.length > 1) {
      for (const page of batch) await readBatch(cpu, [page], problems);
      return;
    }
    results = [{ message: 'its frontmatter could not be read in time; imported without fields' }];
  }
  batch.forEach((page, i) => {
    const result = results[i] ?? {};
    if ('message' in result) problems.push({ path: page.source ?? '', ...result });
    else Object.assign(page, result);
  });
}
