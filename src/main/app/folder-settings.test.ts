import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/start-test-server';
import { contentFixture, TOKENS } from '../../../test/support/test-fixture';
import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import type { WatchRunSummary } from '../../shared/contract/activity';
import { createQuireServices } from '../cli/create-quire-services';
import { quireHome } from '../config/quire-home';
import { QuireApp } from './quire-app';

/**
 * Settings that change what the background sync does while it runs: ignore patterns, and moving
 * the mirror folder. The real services, the real server over loopback, a real watcher.
 */
let t: TestServer;
let dir: string;
let app: QuireApp;
let folder: string;
let runs: WatchRunSummary[];
let stop: AbortController;
let watching: Promise<unknown>;

const handbook = (root = folder) => join(root, 'Acme', 'Handbook');

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; runs: ${JSON.stringify(runs)}`);
    }
    await new Promise((tick) => setTimeout(tick, 25));
  }
}

async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  return (error as CommandFailedError).error;
}

/** Saves a file and waits for the watcher to push something after it. */
async function saveAndPush(path: string, text: string): Promise<WatchRunSummary> {
  const seen = runs.length;
  writeFileSync(path, text);
  return until('a push', () => runs.slice(seen).find((run) => run.pushed > 0));
}

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-folder-settings-'));
  folder = join(dir, 'mirror');
  app = new QuireApp({
    services: createQuireServices(quireHome(join(dir, 'home'))),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
  });
  await app.login({ server: t.url, token: TOKENS.ada, folder });
  await app.listSpaces({});
  runs = [];
  app.on('run', (run) => runs.push(run));
  stop = new AbortController();
  watching = app.watch({ signal: stop.signal, intervalMs: 60_000 });
  await until('the first sync', () => runs[0]);
});
afterEach(async () => {
  stop.abort();
  await watching.catch(() => undefined);
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('ignore patterns', { timeout: 120_000 }, () => {
  it('apply to the running watcher at once: ignored files stay local, the rest is pushed', async () => {
    const settings = await app.updateSettings({ ignorePatterns: [' drafts/ ', '*.tmp.md', ''] });
    expect(settings.ignorePatterns).toEqual(['drafts/', '*.tmp.md']);
    // The watcher started again with them (a second start-up sync).
    await until('the watcher restarted', () =>
      runs.find((run, i) => i > 0 && run.reason === 'start'),
    );

    mkdirSync(join(handbook(), 'drafts'));
    writeFileSync(join(handbook(), 'drafts', 'secret.md'), '# Secret\n\nNot for the server.\n');
    writeFileSync(join(handbook(), 'notes.tmp.md'), '# Scratch\n');
    await saveAndPush(join(handbook(), 'shared.md'), '# Shared\n\nFor everyone.\n');
    const unsynced = await app.unsyncedEdits({});
    expect(unsynced).toEqual([]);
    const status = await app.status({});
    expect(status.pending).toBe(0);
    expect(status.problems).toEqual([]);

    // Kept across restarts, and clearing the list brings the files back into the sync.
    expect((await app.settings({})).ignorePatterns).toEqual(['drafts/', '*.tmp.md']);
    const seen = runs.length;
    expect((await app.updateSettings({ ignorePatterns: [] })).ignorePatterns).toEqual([]);
    await until('the drafts pushed', () =>
      runs.slice(seen).find((run) => run.reason === 'start' && run.pushed > 0),
    );
    expect(await app.unsyncedEdits({})).toEqual([]);
    expect((await app.status({})).pending).toBe(0);
  });
});

describe('moving the mirror folder', { timeout: 120_000 }, () => {
  it('moves the files while the watcher waits, then syncs from the new place', async () => {
    const target = join(dir, 'elsewhere', 'Docs');
    const before = readFileSync(join(handbook(), 'README.md'), 'utf8');
    const settings = await app.moveFolder({ folder: target });
    expect(settings.folder).toBe(target);
    expect(existsSync(folder)).toBe(false);
    expect(readFileSync(join(handbook(target), 'README.md'), 'utf8')).toBe(before);
    expect(await app.connection({})).toMatchObject({ folder: target });

    const run = await saveAndPush(join(handbook(target), 'moved.md'), '# Moved\n\nHello.\n');
    expect(run.failures).toEqual([]);
    // Nothing was downloaded again: the cache knew every file at its new place.
    expect(runs.filter((r) => r.reason === 'start').at(-1)!.written).toBe(0);
    expect((await app.status({})).state).toBe('idle');
  });

  it('refuses a relative path, a folder with files, and a folder inside the mirror', async () => {
    const taken = join(dir, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'x.txt'), 'x');
    for (const target of ['relative/path', taken, join(folder, 'inside')]) {
      expect(await failure(app.moveFolder({ folder: target }))).toMatchObject({
        kind: 'invalid-argument',
        field: 'folder',
      });
    }
    expect(existsSync(join(handbook(), 'README.md'))).toBe(true);
    // The watcher went on.
    await saveAndPush(join(handbook(), 'still.md'), '# Still here\n');
  });
});
