import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli } from '../../src/main/cli/quire-cli';
import { startTestServer } from '../support/start-test-server';
import { JOURNEY_TOKENS, journeyFixture } from '../ui-journeys/journey-fixture';
import { startQuireUi } from '../ui-journeys/journey-kit';
import { eventually, parseUiUrl } from '../ui-host/ui-host-kit';
import { CHROMIUM, buildRenderer } from '../ui/renderer-harness';
import type { Scenario } from './bench-scenario';
import { judgeTimed, type BenchRow } from './bench-table';
import { summarize } from './timing-stats';

const NAME = 'UI: file saved → header "Up to date"';
const TARGET = { maxP50Ms: 1500, maxFloorMultiple: 1.5 };

/** Records every header state the page paints, with its wall-clock time. */
const PILL_RECORDER = `(() => {
  if (window !== window.top) return;
  window.__pills = [];
  const record = () => {
    const pill = document.querySelector('.status-line .pill');
    const text = pill ? pill.textContent : null;
    const last = window.__pills[window.__pills.length - 1];
    if (text && (!last || last.text !== text)) window.__pills.push({ text, at: Date.now() });
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

interface Stamp {
  text: string;
  at: number;
}

/** When `stamps` first went from `busy` to `done` after `since`, if they did. */
function settledAt(stamps: readonly Stamp[], since: number, busy: string, done: string) {
  const after = stamps.filter((stamp) => stamp.at >= since);
  const start = after.findIndex((stamp) => stamp.text === busy);
  if (start < 0) return undefined;
  return after.slice(start).find((stamp) => stamp.text === done)?.at;
}

/** The host's status events as they arrive, each with its wall-clock time, until `close()`. */
async function statusStream(
  origin: string,
  secret: string,
): Promise<{ stamps: Stamp[]; close(): Promise<void> }> {
  const response = await fetch(`${origin}/api/events?secret=${encodeURIComponent(secret)}`);
  if (response.status !== 200) throw new Error(`events: HTTP ${response.status}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const stamps: Stamp[] = [];
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: status$/m.test(block) && data !== undefined)
          stamps.push({ text: (JSON.parse(data) as { state: string }).state, at: Date.now() });
      }
    }
  })();
  return {
    stamps,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await reading;
    },
  };
}

async function login(home: string, cwd: string, server: string, folder: string): Promise<void> {
  let output = '';
  const write = (chunk: string) => ((output += chunk), true);
  const code = await runQuireCli(
    [
      '--home',
      home,
      'login',
      '--server',
      server,
      '--token',
      JOURNEY_TOKENS.ada,
      '--folder',
      folder,
    ],
    { stdout: { write }, stderr: { write }, env: {}, cwd, readStdin: async () => '' },
    createQuireServices,
  );
  if (code !== 0) throw new Error(`quire login failed: ${output}`);
}

/**
 * `quire ui` (its own process) syncing a space from the real server; each save of a page file is
 * timed until the page's header shows "Up to date" again, and, as the floor, until the host's
 * event stream carries the same idle status (the engine and the host without the browser).
 */
export const saveLatencyScenario: Scenario = {
  name: NAME,
  target: TARGET,
  run: async (ctx): Promise<BenchRow> => {
    buildRenderer();
    const t = await startTestServer({ fixture: journeyFixture() });
    const dir = join(ctx.workDir, 'ui-save');
    mkdirSync(dir, { recursive: true });
    const folder = join(dir, 'mirror');
    await login(join(dir, 'home'), dir, t.url, folder);
    const ui = await startQuireUi(join(dir, 'home'), dir);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox'],
    });
    const { origin, secret } = parseUiUrl(ui.url);
    const stream = await statusStream(origin, secret);
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: PILL_RECORDER });
      await page.goto(ui.url);
      await waitForUpToDate(page);
      const file = join(folder, 'Northwind', 'Guide', 'setup.md');
      const saves = ctx.options.quick ? 5 : 20;
      const uiMs: number[] = [];
      const streamMs: number[] = [];
      for (let i = 0; i < saves; i++) {
        const savedAt = Date.now();
        writeFileSync(file, `# Setup\n\nOne.\n\nSave number ${i}.\n\nThree.\n`);
        const [shown, streamed] = await eventually(`save ${i} to settle`, async () => {
          const pills = (await page.evaluate('window.__pills')) as Stamp[];
          const a = settledAt(pills, savedAt, 'Syncing…', 'Up to date');
          const b = settledAt(stream.stamps, savedAt, 'syncing', 'idle');
          return a !== undefined && b !== undefined ? [a, b] : undefined;
        });
        uiMs.push(shown - savedAt);
        streamMs.push(streamed - savedAt);
      }
      const timing = summarize(uiMs);
      const floorStats = summarize(streamMs);
      const floorMultiple = timing.p50Ms / floorStats.p50Ms;
      const judged = judgeTimed(TARGET, timing, floorMultiple);
      return {
        scenario: NAME,
        target: TARGET,
        status: 'measured',
        timing,
        floor: { label: 'the same idle status on the host’s event stream', stats: floorStats },
        floorMultiple,
        verdict: judged.verdict,
        notes: [
          ...judged.notes,
          `${saves} saves of one page file, one at a time; includes the watcher's debounce and the push`,
        ],
      };
    } finally {
      await stream.close();
      await browser.close();
      await ui.stop();
      await t.close();
    }
  },
};

async function waitForUpToDate(page: Page): Promise<void> {
  await page.locator('.status-line .pill', { hasText: 'Up to date' }).waitFor({ timeout: 60_000 });
}
