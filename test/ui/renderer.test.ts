/**
 * The built renderer in Chromium with a fake bridge answering canned contract data: every screen
 * renders (light and dark, screenshots in test-results/ui), empty and error states, the actions
 * reach the contract, server text never becomes markup, and axe finds nothing serious.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptyWorkspace,
  failingWorkspace,
  firstRun,
  fullWorkspace,
  type CannedBridge,
} from './canned-quire-data';
import {
  CHROMIUM,
  INJECTED_MARKUP,
  SCREENSHOT_DIR,
  axeFindings,
  buildRenderer,
  fakeBridgeScript,
  serveRenderer,
} from './renderer-harness';
import { XSS_PAYLOADS, payload } from './xss-payloads';

type Scheme = 'light' | 'dark';

/** Each screen: its hash, and the heading that says it rendered. */
const SCREENS = [
  { name: 'spaces', hash: '#/spaces', heading: 'Spaces' },
  { name: 'conflicts', hash: '#/conflicts', heading: 'Conflicts' },
  { name: 'conflict', hash: '#/conflicts/1', heading: 'Onboarding' },
  { name: 'problems', hash: '#/problems', heading: 'Problems' },
  { name: 'activity', hash: '#/activity', heading: 'Activity' },
  { name: 'settings', hash: '#/settings', heading: 'Settings' },
] as const;

const available = existsSync(CHROMIUM);
let browser: Browser;
let server: Awaited<ReturnType<typeof serveRenderer>>;
const contexts = new Map<Scheme, BrowserContext>();

async function open(canned: CannedBridge, hash: string, scheme: Scheme = 'light'): Promise<Page> {
  let context = contexts.get(scheme);
  if (!context) {
    // The CSP is bypassed so that server text turned into markup would run: the test checks the
    // rendering itself, not the CSP behind it.
    context = await browser.newContext({
      colorScheme: scheme,
      bypassCSP: true,
      viewport: { width: 1280, height: 900 },
    });
    contexts.set(scheme, context);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript({ content: fakeBridgeScript(canned) });
  await page.goto(server.url + hash);
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 5_000 });
}

async function shoot(page: Page, name: string, scheme: Scheme): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`), fullPage: true });
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeFindings(page), where).toEqual([]);
}

describe.skipIf(!available)('the renderer in Chromium', () => {
  beforeAll(async () => {
    buildRenderer();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    server = await serveRenderer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`renders every screen, accessible (${scheme})`, async () => {
      const page = await open(fullWorkspace(), '#/spaces', scheme);
      for (const screen of SCREENS) {
        await page.goto(server.url + screen.hash);
        await heading(page, screen.heading);
        await shoot(page, screen.name, scheme);
        await expectAccessible(page, `${screen.name} (${scheme})`);
      }
      await page.goto(server.url + '#/conflicts/1');
      await page.getByRole('button', { name: 'Edit merged' }).click();
      await page.getByRole('textbox', { name: 'Merged version' }).waitFor();
      await shoot(page, 'conflict-edit-merged', scheme);
      await expectAccessible(page, `edit merged (${scheme})`);
      await page.goto(server.url + '#/problems');
      await page.getByRole('button', { name: 'Confirm the deletions…' }).click();
      await page.getByRole('dialog').waitFor();
      await shoot(page, 'problems-confirm-deletes', scheme);
      await expectAccessible(page, `confirm deletes (${scheme})`);
      expect((page as Page & { errors?: string[] }).errors).toEqual([]);
      await page.close();

      const first = await open(firstRun(), '', scheme);
      await heading(first, 'Connect Quire to your workspace');
      await shoot(first, 'first-run', scheme);
      await expectAccessible(first, `first run (${scheme})`);
      await first.close();
    });
  }

  it('shows every screen empty, and every screen failing, in words', async () => {
    const empty = await open(emptyWorkspace(), '#/spaces');
    const emptyTitles = {
      '#/spaces': 'No spaces yet',
      '#/conflicts': 'No conflicts',
      '#/problems': 'Nothing is stuck',
      '#/activity': 'Nothing happened yet',
    };
    for (const [hash, title] of Object.entries(emptyTitles)) {
      await empty.goto(server.url + hash);
      await empty.getByRole('heading', { name: title }).waitFor({ timeout: 5_000 });
      await shoot(empty, `empty-${hash.slice(2)}`, 'light');
      await expectAccessible(empty, `empty ${hash}`);
    }
    await empty.close();

    const failing = await open(failingWorkspace(), '#/spaces');
    const errorTitles = {
      '#/spaces': 'Spaces could not be read',
      '#/conflicts': 'Conflicts could not be read',
      '#/conflicts/1': 'This conflict is settled',
      '#/problems': 'Problems could not be read',
      '#/activity': 'Activity could not be read',
      '#/settings': 'Settings could not be read',
    };
    for (const [hash, title] of Object.entries(errorTitles)) {
      await failing.goto(server.url + hash);
      const alert = failing.getByRole('alert').filter({ hasText: title });
      await alert.waitFor({ timeout: 5_000 });
      await shoot(failing, `error-${hash.slice(2).replace('/', '-')}`, 'light');
      await expectAccessible(failing, `error ${hash}`);
    }
    await failing.close();
  });

  it('says in words why a login failed, next to the field, and warns of plain http', async () => {
    const page = await open(firstRun(), '');
    await page.getByLabel('Server address').fill('http://192.168.1.20:8080');
    await page.getByLabel('Access token').fill('secret');
    await page.getByLabel('Folder').fill('/home/me/Quire');
    await page.getByText('the token would cross the network unencrypted').waitFor();
    await page.getByRole('button', { name: 'Connect' }).click();
    const token = page.getByLabel('Access token');
    await expect.poll(() => token.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#token-error').textContent()).toContain(
      'The server rejected this token',
    );
    await shoot(page, 'first-run-token-rejected', 'light');
    await expectAccessible(page, 'first run, token rejected');
    await page.close();
  });

  it('sends the user’s decisions through the contract, and follows events', async () => {
    const page = await open(fullWorkspace(), '#/spaces');
    await heading(page, 'Spaces');
    await page.getByRole('switch', { name: 'Sync Archive' }).click();
    await page.goto(server.url + '#/conflicts/1');
    await page.getByRole('button', { name: 'Take theirs' }).click();
    await heading(page, 'Conflicts');
    await page.goto(server.url + '#/problems');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('button', { name: 'Confirm the deletions…' }).click();
    await page.getByRole('button', { name: 'Delete on the server' }).click();
    await page.getByRole('button', { name: 'Pause…' }).click();
    await page.getByRole('button', { name: '1 hour' }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(async () => (await page.evaluate('window.__quireCalls.map((c) => c.name)')) as string[])
      .toEqual(
        expect.arrayContaining([
          'setSpaceEnabled',
          'resolveConflict',
          'retryRefused',
          'confirmDeletes',
          'pause',
          'syncNow',
        ]),
      );
    const calls = (await page.evaluate('window.__quireCalls')) as { name: string; args: unknown }[];
    expect(calls.find((c) => c.name === 'setSpaceEnabled')?.args).toEqual({
      spaceId: 's3',
      enabled: true,
    });
    expect(calls.find((c) => c.name === 'resolveConflict')?.args).toEqual({
      id: 1,
      choice: { mode: 'theirs' },
    });
    expect(calls.find((c) => c.name === 'confirmDeletes')?.args).toEqual({ spaceId: 's1' });

    // A status event replaces the header's state; a progress event shows the bar.
    const idle = { ...(fullWorkspace().results.status as object), state: 'syncing', pending: 0 };
    await page.evaluate(`window.__emit('status', ${JSON.stringify(idle)})`);
    await page.evaluate(`window.__emit('progress', { phase: 'fetching', done: 3, total: 10 })`);
    await page.getByText('Syncing…').waitFor();
    await page.getByRole('progressbar', { name: 'Downloading: 3 of 10' }).waitFor();
    await shoot(page, 'header-progress', 'light');
    await page.close();
  });

  it('offers what the host can do: open folders and files, desktop settings, the demo', async () => {
    const page = await open(fullWorkspace(), '#/spaces');
    await heading(page, 'Spaces');
    await page.getByRole('button', { name: 'Open folder of Handbook' }).click();
    // A space that is not synced has no folder to open.
    expect(await page.getByRole('button', { name: 'Open folder of Archive' }).count()).toBe(0);
    await page.goto(server.url + '#/conflicts');
    await page.getByRole('button', { name: 'Open file of Onboarding' }).click();
    await page.goto(server.url + '#/problems');
    await page
      .getByRole('button', { name: /^Open file / })
      .first()
      .click();
    await page.goto(server.url + '#/settings');
    await page.getByText('No keyring protects your token').waitFor();
    await page.getByRole('switch', { name: /^Notifications/ }).click();
    await expect
      .poll(() => page.getByRole('switch', { name: /^Notifications/ }).getAttribute('aria-checked'))
      .toBe('false');
    await shoot(page, 'settings-desktop', 'light');
    const calls = (await page.evaluate('window.__quireCalls')) as { name: string; args: unknown }[];
    expect(calls.filter((c) => c.name === 'openPath').map((c) => c.args)).toEqual([
      { spaceId: 's1' },
      { conflictId: 1 },
      { path: expect.any(String) },
    ]);
    expect(calls.find((c) => c.name === 'updateDesktopSettings')?.args).toEqual({
      notifications: false,
    });
    await page.close();

    const first = await open(firstRun(), '');
    await first.getByLabel('Where to sync the demo').fill('/proc/demo');
    await first.getByRole('button', { name: 'Try the demo workspace' }).click();
    await first.getByText('/proc/demo cannot be created').waitFor();
    await shoot(first, 'first-run-demo-failed', 'light');
    await expectAccessible(first, 'first run, demo failed');
    await first.close();
  });

  it('hides what a host without those ports cannot do (quire ui: no demo, no desktop settings)', async () => {
    const canned = fullWorkspace();
    canned.results.capabilities = { openPath: false, startDemo: false, desktopSettings: false };
    const page = await open(canned, '#/spaces');
    await heading(page, 'Spaces');
    await page.getByRole('switch', { name: 'Sync Archive' }).waitFor();
    expect(await page.getByRole('button', { name: /^Open folder/ }).count()).toBe(0);
    await page.goto(server.url + '#/settings');
    await heading(page, 'Settings');
    expect(await page.getByRole('switch', { name: /^Notifications/ }).count()).toBe(0);
    await page.close();
    const first = await open({ ...firstRun(), results: { connection: { state: 'new' } } }, '');
    await heading(first, 'Connect Quire to your workspace');
    expect(await first.getByRole('button', { name: 'Try the demo workspace' }).count()).toBe(0);
    await first.close();
  });

  it('works from the keyboard, with a visible focus', async () => {
    const page = await open(fullWorkspace(), '#/spaces');
    await heading(page, 'Spaces');
    const focused = () =>
      page.evaluate(
        '[document.activeElement?.textContent?.trim() ?? "", getComputedStyle(document.activeElement).outlineStyle]',
      ) as Promise<[string, string]>;
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual(['Skip to content', 'solid']);
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');

    await page.getByRole('switch', { name: 'Sync Archive' }).focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => page.evaluate('window.__quireCalls.some((c) => c.name === "setSpaceEnabled")'))
      .toBe(true);

    await page.getByRole('button', { name: 'Pause…' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Pause sending your edits' }).waitFor();
    expect((await focused())[0]).toBe('30 minutes');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect((await focused())[0]).toBe('Pause…');
    await page.close();
  });

  it('asks to sign in again when the server rejected the token, with the address kept', async () => {
    const canned = fullWorkspace();
    const status = canned.results.status;
    if (!status) throw new Error('no canned status');
    canned.results.status = { ...status, state: 'error', tokenRejected: true, error: '401' };
    const page = await open(canned, '#/spaces');
    await page.getByText('Token rejected', { exact: true }).waitFor();
    await shoot(page, 'header-token-rejected', 'light');
    await expectAccessible(page, 'token rejected');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await heading(page, 'Connect Quire to your workspace');
    expect(await page.getByLabel('Server address').inputValue()).toBe('https://docs.example.com');
    await page.getByRole('link', { name: 'Back to Quire' }).click();
    await heading(page, 'Spaces');
    await page.close();
  });

  it(`executes none of ${XSS_PAYLOADS.length} XSS payloads in any screen that shows server text`, async () => {
    let n = 0;
    const hostile = fullWorkspace((plain) => `${plain} ${payload(n++)}`);
    const page = await open(hostile, '#/spaces');
    for (const screen of SCREENS) {
      await page.goto(server.url + screen.hash);
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 5_000 });
      if (screen.name === 'conflict')
        await page.getByRole('button', { name: 'Edit merged' }).click();
      if (screen.name === 'spaces') {
        await page.getByRole('button', { name: 'Refresh list from server' }).click();
        await page.getByText('Some organizations could not be listed').waitFor();
      }
      if (screen.name === 'activity') {
        // Server text that arrives by event: the header's reason, a new activity line.
        const offline = {
          ...(hostile.results.status as object),
          state: 'offline',
          error: payload(0),
        };
        const entry = {
          id: 99,
          at: new Date().toISOString(),
          kind: 'pulled',
          spaceId: 's1',
          spaceTitle: payload(1),
          summary: payload(2),
          files: [payload(3)],
        };
        await page.evaluate(`window.__emit('status', ${JSON.stringify(offline)})`);
        await page.evaluate(`window.__emit('activity', ${JSON.stringify(entry)})`);
        await page.getByText('Offline', { exact: true }).waitFor();
      }
      await page.waitForTimeout(50);
      await shoot(page, `xss-${screen.name}`, 'light');
      expect(await page.locator(INJECTED_MARKUP).count(), screen.name).toBe(0);
      // The payloads are on screen, as text.
      expect(await page.locator('#root').innerText(), screen.name).toContain('__xss(');
    }
    expect(await page.evaluate('window.__xssHits')).toEqual([]);
    await page.close();
  });
});
