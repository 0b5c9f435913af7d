import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import type { Page } from 'playwright-core';
import type { TestServer } from '../support/start-test-server';
import { eventually } from '../ui-host/ui-host-kit';
import { INJECTED_MARKUP, ROOT, RENDERER_DIR, axeFindings } from '../ui/renderer-harness';

export const JOURNEY_SCREENSHOTS = join(ROOT, 'test-results/ui-journeys');
const BIN = join(ROOT, 'bin/quire.mjs');

export interface QuireUiProcess {
  readonly child: ChildProcess;
  /** The printed URL, with its secret. */
  readonly url: string;
  output(): string;
  /** Ctrl-C, then the exit code. */
  stop(): Promise<number | null>;
}

/** `quire --home <home> ui` as a user runs it (bin/quire.mjs), serving the built renderer. */
export async function startQuireUi(home: string, cwd: string): Promise<QuireUiProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_RENDERER_DIR: RENDERER_DIR };
  delete env['NODE_OPTIONS'];
  delete env['QUIRE_HOME'];
  delete env['QUIRE_TOKEN'];
  const child = spawn(process.execPath, [BIN, '--home', home, 'ui'], { cwd, env });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await eventually(
    'the URL quire ui prints',
    () => /Quire UI: (http\S+)/.exec(output)?.[1],
    30_000,
    () => output,
  );
  return {
    child,
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const closed = new Promise<number | null>((done) => child.once('close', done));
      child.kill('SIGINT');
      return closed;
    },
  };
}

/**
 * Defines `__xss(n)` (what every payload calls if it ever runs) and a record of every state the
 * header's status pill showed, in every page of the context before its scripts run.
 */
export const JOURNEY_INIT_SCRIPT = `(() => {
  window.__xssHits = [];
  window.__xss = (n) => { (window.top || window).__xssHits.push(n); };
  if (window !== window.top) return;
  window.__pillStates = [];
  const record = () => {
    const pill = document.querySelector('.status-line .pill');
    const text = pill ? pill.textContent : null;
    if (text && window.__pillStates[window.__pillStates.length - 1] !== text) window.__pillStates.push(text);
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** The header's overall state as shown now ("Up to date", "Syncing…", "Paused"…). */
export async function headerState(page: Page): Promise<string | null> {
  return page
    .locator('.status-line .pill')
    .first()
    .textContent({ timeout: 1_000 })
    .catch(() => null);
}

/** Waits until the header shows `label` (a string: exactly; a RegExp: matching). */
export async function waitForHeader(page: Page, label: string | RegExp, limitMs = 30_000) {
  await eventually(
    `the header to show ${String(label)}`,
    async () => {
      const text = await headerState(page);
      if (text === null) return undefined;
      return (typeof label === 'string' ? text === label : label.test(text)) ? true : undefined;
    },
    limitMs,
  ).catch(async (error: unknown) => {
    throw new Error(`${String(error)}\nheader: ${await headerState(page)}`);
  });
}

/** The header states seen since the last call (recorded by JOURNEY_INIT_SCRIPT). */
export async function takePillStates(page: Page): Promise<string[]> {
  return (await page.evaluate(
    '(() => { const s = window.__pillStates; window.__pillStates = []; return s; })()',
  )) as string[];
}

export interface ScreenCheck {
  readonly screenshots: string[];
  readonly axe: { where: string; findings: unknown[] }[];
  readonly injected: { where: string; markup: string[] }[];
}

/**
 * One screen as it is now: a screenshot in light and in dark, axe-core's serious and critical
 * findings in each, and any server text that became markup. Leaves the page light.
 */
export async function captureScreen(page: Page, name: string, into: ScreenCheck): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const path = join(JOURNEY_SCREENSHOTS, `${name}-${scheme}.png`);
    await page.screenshot({ path, fullPage: true });
    into.screenshots.push(path);
    const findings = await axeFindings(page);
    if (findings.length > 0) into.axe.push({ where: `${name} (${scheme})`, findings });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  const markup = await page
    .locator(INJECTED_MARKUP)
    .evaluateAll((nodes) => nodes.map((node) => node.outerHTML.slice(0, 120)));
  if (markup.length > 0) into.injected.push({ where: name, markup });
}

/** The payloads that ran in the page (none, unless server text became live markup). */
export async function xssHits(page: Page): Promise<number[]> {
  return (await page.evaluate('window.__xssHits')) as number[];
}

/** Goes to a screen through the navigation, as a user does. */
export async function openScreen(
  page: Page,
  name: 'Spaces' | 'Conflicts' | 'Problems' | 'Activity' | 'Settings',
): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The draft change request the client pushes into (one per space in these journeys). */
export async function workingChangeRequest(
  t: TestServer,
  token: string,
  spaceId: string,
): Promise<string | undefined> {
  const { data } = await t.client(token).spaces.listChangeRequestsForSpace(spaceId, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  return items.find((cr) => cr.subject?.startsWith('Edits from '))?.id;
}

/** A page's Markdown in the working change request, undefined while there is none. */
export async function pushedMarkdown(
  t: TestServer,
  token: string,
  spaceId: string,
  pageId: string,
): Promise<string | undefined> {
  const cr = await workingChangeRequest(t, token, spaceId);
  if (cr === undefined) return undefined;
  const { data } = await t
    .client(token)
    .spaces.getPageInChangeRequestById(spaceId, cr, pageId, { format: 'markdown' })
    .catch(() => ({ data: {} }));
  return (data as { markdown?: string }).markdown;
}

/** The ids of the pages the working change request still has (every page, nested ones too). */
export async function pushedPageIds(
  t: TestServer,
  token: string,
  spaceId: string,
): Promise<string[]> {
  const cr = await workingChangeRequest(t, token, spaceId);
  if (cr === undefined) return [];
  const { data } = await t.client(token).spaces.listPagesInChangeRequest(spaceId, cr);
  type Node = { id: string; pages?: Node[] };
  const flat = (pages: Node[]): string[] =>
    pages.flatMap((page) => [page.id, ...flat(page.pages ?? [])]);
  return flat(data.pages as Node[]);
}

/** A file's text, or undefined while it does not exist. */
export function fileText(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}
