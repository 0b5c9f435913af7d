import { join } from 'node:path';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { ChangeRequestStore } from '../../src/main/change-requests/change-request-store';
import { ChangeRequestViews } from '../../src/main/change-requests/change-request-views';
import { ChangeRequestRevisionStore } from '../../src/main/change-requests/revision-store';
import type { RemoteChangeRequest, RemotePage } from '../../src/main/sync-ports';
import type { RunContext, Scenario } from './bench-scenario';
import { judgeTimed, ms, type BenchRow, type Target } from './bench-table';
import { summarize, timeSync, type TimingStats } from './timing-stats';

/** The case: a change request touching 200 pages of a 2,000-page space, offline. */
const PAGES = 2000;
const CHANGED = 200;
/**
 * The diff reads the trees without bodies and only the changed pages' bodies: the first page
 * costs no more than reading both revisions whole, and the complete list at most 3 times that.
 */
const FIRST_TARGET: Target = { maxFloorMultiple: 1 };
const COMPLETE_TARGET: Target = { maxFloorMultiple: 3 };

/** ~5 KB of Markdown: 100 lines of prose. */
function body(page: number, edited: boolean): string {
  const lines = [`# Page ${page}`, ''];
  for (let line = 0; line < 100; line++) {
    const changed = edited && line % 25 === 7;
    lines.push(
      `Line ${line} of page ${page}: the ${changed ? 'revised' : 'original'} text of this paragraph goes on.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** 100 sections of 19 pages (2,000 in all), `changed` of them edited in the head revision. */
function tree(edited: ReadonlySet<number>): RemotePage[] {
  const page = (n: number, pages: RemotePage[] = []): RemotePage => ({
    id: `p-${n}`,
    type: 'document',
    title: `Page ${n}`,
    slug: `page-${n}`,
    markdown: body(n, edited.has(n)),
    pages,
  });
  const sections: RemotePage[] = [];
  for (let s = 0; s < PAGES / 20; s++) {
    const children = Array.from({ length: 19 }, (_, c) => page(s * 20 + c + 1));
    sections.push(page(s * 20, children));
  }
  return sections;
}

function seed(db: CacheDb): void {
  db.exec(`INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'Bench', 'Bench');
    INSERT INTO spaces (id, organization_id, title, folder_path, enabled, discovered_at)
    VALUES ('s', 'o', 'Large', 'Bench/Large', 1, '2026-01-01T00:00:00.000Z');`);
  const at = new Date().toISOString();
  const revisions = new ChangeRequestRevisionStore(db);
  revisions.store('s', 'r-base', tree(new Set()), at);
  const edited = new Set(Array.from({ length: CHANGED }, (_, i) => i * (PAGES / CHANGED) + 3));
  revisions.store('s', 'r-head', tree(edited), at);
  const cr: RemoteChangeRequest = {
    id: 'cr-1',
    number: 1,
    status: 'open' as RemoteChangeRequest['status'],
    subject: 'Bench',
    space: 's',
    revision: 'r-head',
    revisionInitial: 'r-base',
    outdated: false,
    comments: 0,
    createdAt: at,
    updatedAt: at,
    createdBy: { id: 'u', displayName: 'U' },
  };
  new ChangeRequestStore(db).upsert(
    cr,
    { reviews: [], requestedReviewers: [], contributors: [] },
    at,
  );
}

const diffOffline: Scenario = {
  name: 'change-request diff offline: 200 of 2,000 pages',
  target: FIRST_TARGET,
  async run(ctx: RunContext): Promise<BenchRow[]> {
    const db = openCacheDatabase(join(ctx.workDir, 'cr-diff-cache.db'));
    try {
      seed(db);
      const runs = ctx.options.quick ? 5 : 20;
      const ref = { space: 's', number: 1 };
      const revisions = new ChangeRequestRevisionStore(db);
      const samples = { floor: [] as number[], first: [] as number[], complete: [] as number[] };
      let pages = 0;
      // One unmeasured round (JIT, page cache), then interleaved rounds.
      for (let i = 0; i <= runs; i++) {
        const floor = timeSync(() => {
          revisions.pages('s', 'r-base');
          revisions.pages('s', 'r-head');
        });
        const first = timeSync(() => {
          new ChangeRequestViews(db).pageDiffs(ref).next();
        });
        const complete = timeSync(() => {
          pages = new ChangeRequestViews(db).diff(ref).pages.length;
        });
        if (i === 0) continue;
        samples.floor.push(floor);
        samples.first.push(first);
        samples.complete.push(complete);
      }
      if (pages !== CHANGED) throw new Error(`the diff lists ${pages} pages, not ${CHANGED}`);
      const stats = {
        floor: summarize(samples.floor),
        first: summarize(samples.first),
        complete: summarize(samples.complete),
      };
      ctx.log(
        `  p50: first page ${ms(stats.first.p50Ms)} ms, all ${CHANGED} pages ${ms(stats.complete.p50Ms)} ms, ` +
          `reading both revisions ${ms(stats.floor.p50Ms)} ms`,
      );
      return rows(stats, runs);
    } finally {
      db.close();
    }
  },
};

function rows(stats: Record<'floor' | 'first' | 'complete', TimingStats>, runs: number) {
  const floor = {
    label: 'both revisions (4,000 page rows with their ~5 KB bodies) read through better-sqlite3',
    stats: stats.floor,
  };
  const how = `${runs} rounds, interleaved with the floor; from the cache, no server`;
  const row = (scenario: string, target: Target, timing: TimingStats): BenchRow => {
    const floorMultiple = timing.p50Ms / stats.floor.p50Ms;
    const judged = judgeTimed(target, timing, floorMultiple);
    return {
      scenario,
      target,
      status: 'measured',
      timing,
      floor,
      floorMultiple,
      verdict: judged.verdict,
      notes: [...judged.notes, how],
    };
  };
  return [
    row(
      'change-request diff offline: first page diff (200 of 2,000 pages)',
      FIRST_TARGET,
      stats.first,
    ),
    row(
      'change-request diff offline: complete list (200 of 2,000 pages)',
      COMPLETE_TARGET,
      stats.complete,
    ),
  ];
}

/** Rows of `npm run bench:sync` about the change-request mirror. */
export const changeRequestDiffScenarios: readonly Scenario[] = [diffOffline];
