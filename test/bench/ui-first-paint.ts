import { chromium } from 'playwright-core';
import type { ConflictListing } from '../../src/shared/contract/conflicts';
import type { SpaceStatus } from '../../src/shared/contract/spaces';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';
import { emptyWorkspace, fullWorkspace, type CannedBridge } from '../ui/canned-quire-data';
import { CHROMIUM, buildRenderer, fakeBridgeScript, serveRenderer } from '../ui/renderer-harness';
import type { Scenario } from './bench-scenario';
import { judgeTimed, type BenchRow } from './bench-table';
import { summarize } from './timing-stats';

const SPACES = 200;
const CONFLICTS = 50;

/** A signed-in workspace of `SPACES` spaces in 4 organizations and `CONFLICTS` open conflicts. */
function largeWorkspace(): CannedBridge {
  const full = fullWorkspace();
  const at = new Date(Date.now() - 20 * 60_000).toISOString();
  const spaces: SpaceStatus[] = Array.from({ length: SPACES }, (_, i) => ({
    id: `s${i}`,
    title: `Space ${i}`,
    organization: `Organization ${i % 4}`,
    folder: `Organization ${i % 4}/Space ${i}`,
    enabled: i % 10 !== 0,
    state: i % 10 === 0 ? 'disabled' : 'synced',
    revision: `r-${i}`,
    remoteRevision: `r-${i}`,
    pages: 40 + (i % 60),
    lastSync: at,
    errors: [],
  }));
  const conflicts: ConflictListing[] = Array.from({ length: CONFLICTS }, (_, i) => ({
    id: i + 1,
    spaceId: `s${i % SPACES}`,
    spaceTitle: `Space ${i % SPACES}`,
    pageId: `p${i}`,
    pageTitle: `Page ${i}`,
    path: `page-${i}.md`,
    file: `/home/me/Quire/Space ${i}/page-${i}.md`,
    kind: 'content',
    message: `page-${i}.md was edited locally and changed remotely (both sides edited line 5)`,
    createdAt: at,
  }));
  const status: SyncStatusSnapshot = {
    ...(full.results.status as SyncStatusSnapshot),
    conflicts: CONFLICTS,
    spaces: spaces.map((s) => ({
      id: s.id,
      title: s.title,
      folder: s.folder,
      enabled: s.enabled,
      state: s.state,
      pending: 0,
      conflicts: 0,
      lastSync: s.lastSync,
      errors: [],
    })),
  };
  return {
    results: { ...full.results, status, spaceStatuses: spaces, conflicts },
    errors: {},
  };
}

/**
 * Records, in the page, the time since navigation when `selector` first matches `count` elements
 * in an animation frame (the frame that paints them).
 */
function paintProbe(selector: string, count: number): string {
  return `(() => {
  if (window !== window.top) return;
  const check = () => {
    if (document.querySelectorAll(${JSON.stringify(selector)}).length >= ${count}) {
      window.__painted = performance.now();
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;
}

interface PaintCase {
  readonly hash: string;
  readonly selector: string;
  readonly count: number;
}

/** First paint of one screen, `runs` times, each in a new page: milliseconds from navigation. */
async function measurePaint(
  url: string,
  canned: CannedBridge,
  screen: PaintCase,
  runs: number,
): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox'],
  });
  try {
    const samples: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      // The page's CSP (script-src 'self') would refuse the probe's wait, not the app's code.
      const page = await browser.newPage({
        viewport: { width: 1280, height: 900 },
        bypassCSP: true,
      });
      await page.addInitScript({ content: fakeBridgeScript(canned) });
      await page.addInitScript({ content: paintProbe(screen.selector, screen.count) });
      await page.goto(url + screen.hash);
      await page.waitForFunction('window.__painted !== undefined', null, { timeout: 30_000 });
      const painted = (await page.evaluate('window.__painted')) as number;
      // The first page warms the browser's caches: not a sample.
      if (i > 0) samples.push(painted);
      await page.close();
    }
    return samples;
  } finally {
    await browser.close();
  }
}

function paintScenario(
  name: string,
  subject: PaintCase,
  floor: PaintCase,
  floorLabel: string,
): Scenario {
  const target = { maxP50Ms: 1000, maxFloorMultiple: 3 };
  return {
    name,
    target,
    run: async (ctx): Promise<BenchRow> => {
      buildRenderer();
      const server = await serveRenderer();
      try {
        const runs = ctx.options.quick ? 5 : 15;
        ctx.log(`  ${runs} page loads of the empty screen, then ${runs} of the full one`);
        const floorSamples = await measurePaint(server.url, emptyWorkspace(), floor, runs);
        const samples = await measurePaint(server.url, largeWorkspace(), subject, runs);
        const timing = summarize(samples);
        const floorStats = summarize(floorSamples);
        const floorMultiple = timing.p50Ms / floorStats.p50Ms;
        const judged = judgeTimed(target, timing, floorMultiple);
        return {
          scenario: name,
          target,
          status: 'measured',
          timing,
          floor: { label: floorLabel, stats: floorStats },
          floorMultiple,
          verdict: judged.verdict,
          notes: [
            ...judged.notes,
            'from navigation to the animation frame that paints the content (fake bridge, built renderer)',
          ],
        };
      } finally {
        await server.close();
      }
    },
  };
}

/** The UI's first paint with a large workspace, against the same screen empty. */
export const firstPaintScenarios: readonly Scenario[] = [
  paintScenario(
    `UI first paint: Spaces, ${SPACES} spaces (${CONFLICTS} conflicts)`,
    { hash: '#/spaces', selector: '[role="switch"]', count: SPACES },
    { hash: '#/spaces', selector: '.state-panel h2', count: 1 },
    'the Spaces screen with no space',
  ),
  paintScenario(
    `UI first paint: Conflicts, ${CONFLICTS} conflicts`,
    { hash: '#/conflicts', selector: '.list > li', count: CONFLICTS },
    { hash: '#/conflicts', selector: '.state-panel h2', count: 1 },
    'the Conflicts screen with none',
  ),
];
