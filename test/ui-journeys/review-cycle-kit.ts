import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';
import type { TestServer } from '../support/start-test-server';
import type { SwitchableProxy } from '../support/switchable-proxy';
import { eventually, invokeOverHttp, parseUiUrl } from '../ui-host/ui-host-kit';
import { INJECTED_MARKUP, SCREENSHOT_DIR, axeFindings } from '../ui/renderer-harness';
import {
  JOURNEY_INIT_SCRIPT,
  startQuireUi,
  waitForHeader,
  type QuireUiProcess,
} from './journey-kit';

/** One person at their computer: a `quire ui` host, its Chromium page, and its own way online. */
export interface ReviewUser {
  readonly name: string;
  readonly token: string;
  readonly mirror: string;
  readonly proxy: SwitchableProxy;
  readonly ui: QuireUiProcess;
  readonly page: Page;
  readonly errors: string[];
}

export interface CycleChecks {
  readonly screenshots: string[];
  readonly axe: { where: string; findings: unknown[] }[];
  readonly injected: { where: string; markup: string[] }[];
}

/** Starts `quire ui` in `dir` for `name` and opens it in a page of its own. */
export async function startUser(
  browser: Browser,
  dir: string,
  name: string,
  token: string,
  proxy: SwitchableProxy,
): Promise<ReviewUser> {
  const ui = await startQuireUi(join(dir, `${name}-home`), dir);
  const context = await browser.newContext({
    // Bypassed so that axe-core can be injected, and server text turned markup would run.
    bypassCSP: true,
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript({ content: JOURNEY_INIT_SCRIPT });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { name, token, mirror: join(dir, `${name}-mirror`), proxy, ui, page, errors };
}

/** Signs in through the connect screen, against the user's proxy, and waits for the first sync. */
export async function signIn(user: ReviewUser): Promise<void> {
  const { page } = user;
  await page.goto(user.ui.url);
  await page.getByLabel('Server address').fill(user.proxy.url);
  await page.getByLabel('Access token').fill(user.token);
  await page.getByLabel('Folder').fill(user.mirror);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
  await waitForHeader(page, 'Up to date');
}

/** Clicks "Sync now" and waits until the engine says a sync started after it finished. */
export async function syncNow(user: ReviewUser): Promise<void> {
  const { origin, secret } = parseUiUrl(user.ui.url);
  const lastSync = async () => {
    const status = await invokeOverHttp(origin, secret, 'status');
    return (status.result as SyncStatusSnapshot).lastSync ?? '';
  };
  const before = await lastSync();
  await user.page.getByRole('button', { name: 'Sync now' }).click();
  await eventually(
    `${user.name}'s sync to finish`,
    async () => ((await lastSync()) > before ? true : undefined),
    30_000,
  );
}

/** Review → the change request `#<number>`, through the navigation and the inbox. */
export async function openChangeRequest(user: ReviewUser, number: number): Promise<void> {
  const { page } = user;
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: /^Review/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
  await page.getByRole('link', { name: new RegExp(`^#${number} `) }).click();
  await page.getByRole('heading', { level: 1, name: new RegExp(`^#${number} `) }).waitFor();
}

/** The change request's action bar. */
export function actions(user: ReviewUser) {
  return user.page.getByRole('group', { name: 'Change request actions' });
}

/**
 * A screenshot of the page as it is into test-results/ui/review-cycle-<name>-light.png (and
 * -dark.png with `dark`), with axe-core's serious findings and any server text become markup.
 */
export async function shoot(
  page: Page,
  name: string,
  into: CycleChecks,
  dark = false,
): Promise<void> {
  for (const scheme of dark ? (['light', 'dark'] as const) : (['light'] as const)) {
    await page.emulateMedia({ colorScheme: scheme });
    const path = join(SCREENSHOT_DIR, `review-cycle-${name}-${scheme}.png`);
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

/** Every file under `root` (relative path → text), leaving out the folders `skip` matches. */
export function treeOf(root: string, skip: RegExp): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!skip.test(name)) walk(path);
      } else files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** A page's Markdown as the server has it in a change request (undefined when unreadable). */
export async function markdownIn(
  t: TestServer,
  token: string,
  spaceId: string,
  changeRequestId: string,
  pageId: string,
): Promise<string | undefined> {
  const { data } = await t
    .client(token)
    .spaces.getPageInChangeRequestById(spaceId, changeRequestId, pageId, { format: 'markdown' })
    .catch(() => ({ data: {} }));
  return (data as { markdown?: string }).markdown;
}

/** Waits until `check` on the server holds (what a sync sent has arrived). */
export async function onServer(what: string, check: () => Promise<boolean>): Promise<void> {
  await eventually(what, async () => ((await check()) ? true : undefined), 30_000);
}

/** Nothing hostile ran, axe found nothing serious, and no page threw. */
export function expectCleanRun(checks: CycleChecks, users: ReviewUser[]): void {
  expect(checks.injected).toEqual([]);
  expect(checks.axe).toEqual([]);
  expect(users.flatMap((user) => user.errors)).toEqual([]);
}
