import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/start-test-server';
import { contentFixture, TOKENS } from '../../../test/support/test-fixture';
import { remoteEdit } from '../../../test/sync/sync-test-kit';
import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import type { QuireEvents } from '../../shared/contract/quire-events';
import { createQuireServices } from '../cli/create-quire-services';
import { quireHome } from '../config/quire-home';
import { DrainLock, drainLockPath } from '../outbox/drain-lock';
import { dispatchCommand } from './dispatch-command';
import { QuireApp } from './quire-app';

/**
 * The application layer over the real services (cache, engine, HTTP client) and the real server
 * over loopback: Acme's Handbook mirrors as README.md, guides/README.md and guides/setup.md.
 */
const SPACE = 's-handbook';
const BASE = '# Setup\n\nOne.\n\nTwo.\n\nThree.\n';

let t: TestServer;
let dir: string;
let app: QuireApp;
let folder: string;

function newApp(): QuireApp {
  const home = quireHome(join(dir, 'home'));
  return new QuireApp({
    services: createQuireServices(home),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
  });
}

/** The typed error a command failed with (and proof it survives serialisation). */
async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  const typed = (error as CommandFailedError).error;
  expect(JSON.parse(JSON.stringify(typed))).toEqual(typed);
  return typed;
}

/** Every event of one kind, as it arrives. */
function collect<E extends keyof QuireEvents>(event: E): QuireEvents[E][] {
  const seen: QuireEvents[E][] = [];
  app.on(event, (payload) => seen.push(payload));
  return seen;
}

async function loginAda(): Promise<void> {
  await app.login({ server: t.url, token: TOKENS.ada, folder });
}

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-app-'));
  folder = join(dir, 'mirror');
  app = newApp();
});
afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('QuireApp', () => {
  it('answers before any login, and refuses what needs one with typed errors', async () => {
    expect(await app.connection({})).toEqual({ state: 'new' });
    expect(await app.appInfo({})).toEqual({ name: 'Quire', version: 'test' });
    expect((await failure(app.status({}))).kind).toBe('not-logged-in');
    // What a bridge sends across: the outcome as data.
    expect(await dispatchCommand(app, 'status', {})).toEqual({
      ok: false,
      error: { kind: 'not-logged-in', message: expect.stringMatching(/^not logged in \(no /) },
    });
    expect(await dispatchCommand(app, 'appInfo', {})).toEqual({
      ok: true,
      result: { name: 'Quire', version: 'test' },
    });
    expect(await failure(app.checkServerUrl({ server: 'ftp://x.test' }))).toEqual({
      kind: 'invalid-argument',
      field: 'server',
      message: 'invalid server URL "ftp://x.test": it must start with http:// or https://',
    });
    expect(await app.checkServerUrl({ server: `${t.url}/v1` })).toEqual({
      origin: t.url,
      cleartext: false,
    });
  });

  it('tells a rejected token, an unreachable server and a bad folder apart', async () => {
    const rejected = app.login({ server: t.url, token: 'tok-nobody', folder });
    expect(await failure(rejected)).toEqual({
      kind: 'token-rejected',
      message: 'the server rejected the token',
    });
    const unreachable = app.login({ server: 'http://127.0.0.1:9', token: 'x', folder });
    expect((await failure(unreachable)).kind).toBe('offline');
    writeFileSync(join(dir, 'a-file'), '');
    const notAFolder = app.login({ server: t.url, token: TOKENS.ada, folder: join(dir, 'a-file') });
    expect(await failure(notAFolder)).toMatchObject({ kind: 'folder-unusable' });
    const home = app.login({ server: t.url, token: TOKENS.ada, folder: join(dir, 'home', 'm') });
    expect(await failure(home)).toMatchObject({ kind: 'invalid-argument', field: 'folder' });
    expect(await app.connection({})).toEqual({ state: 'new' });
  });

  it('logs in, lists spaces by organization, syncs with progress and activity', async () => {
    const login = await app.login({ server: t.url, token: TOKENS.ada, folder });
    expect(login).toMatchObject({ server: t.url, folder, warnings: [] });
    expect(await app.connection({})).toMatchObject({
      state: 'logged-in',
      server: t.url,
      folder,
      user: login.user,
      runner: null,
    });
    const listed = await app.listSpaces({});
    expect(listed.organizations.map((org) => org.title)).toContain('Acme');
    const handbook = listed.spaces.find((space) => space.id === SPACE);
    expect(handbook).toMatchObject({ title: 'Handbook', organization: 'Acme', enabled: true });

    const progress = collect('progress');
    const activity = collect('activity');
    const synced = await app.syncNow({});
    if (synced.kind !== 'ran') throw new Error('expected the sync to run here');
    expect(synced.pause).toEqual({ paused: false, until: null });
    expect(synced.spaces.find((space) => space.id === SPACE)?.outcome).toBe('pulled');
    expect(readFileSync(join(folder, 'Acme', 'Handbook', 'README.md'), 'utf8')).toContain('#');
    expect(progress.length).toBeGreaterThan(0);
    expect(activity.map((entry) => entry.kind)).toContain('pulled');
    const log = await app.activity({ limit: null });
    expect(log[0]?.id).toBeGreaterThanOrEqual(log.at(-1)?.id ?? 0);
    expect(log.find((entry) => entry.spaceId === SPACE)?.summary).toMatch(/^Pulled revision /);
    expect((await app.status({})).state).toBe('idle');
  });

  it('announces conflicts and resolves them; an unknown id is a typed error', async () => {
    await loginAda();
    await remoteEdit(t, SPACE, [
      { operation: 'update_page', page: 'p-setup', document: { markdown: BASE } },
    ]);
    await app.syncNow({});
    const setup = join(folder, 'Acme', 'Handbook', 'guides', 'setup.md');
    writeFileSync(setup, BASE.replace('Two.', 'Two, mine.'));
    await remoteEdit(t, SPACE, [
      {
        operation: 'update_page',
        page: 'p-setup',
        document: { markdown: BASE.replace('Two.', 'Two, theirs.') },
      },
    ]);
    const conflictEvents = collect('conflicts');
    const statusEvents = collect('status');
    await app.syncNow({});
    const [conflict] = conflictEvents.at(-1) ?? [];
    expect(conflict).toMatchObject({ spaceId: SPACE, kind: 'content', file: setup });
    expect(statusEvents.at(-1)?.state).toBe('conflicts');
    const versions = await app.conflictVersions({ id: conflict!.id });
    expect(versions.theirs).toContain('Two, theirs.');
    expect(versions.mine).toContain('Two, mine.');

    expect(await failure(app.conflictVersions({ id: 999 }))).toEqual({
      kind: 'unknown-conflict',
      id: 999,
      message: 'no open conflict #999',
    });
    const activity = collect('activity');
    await app.resolveConflict({ id: conflict!.id, choice: { mode: 'theirs' } });
    expect(conflictEvents.at(-1)).toEqual([]);
    expect(activity.map((entry) => entry.kind)).toEqual(['resolved']);
    expect(readFileSync(setup, 'utf8')).toContain('Two, theirs.');
  });

  it('pauses and resumes, keeps settings, refuses bad ones', async () => {
    await loginAda();
    const until = new Date(Date.now() + 60_000).toISOString();
    expect(await app.pause({ until })).toEqual({ paused: true, until });
    expect((await app.status({})).state).toBe('paused');
    expect(await app.resume({})).toEqual({ paused: false, until: null });
    expect((await failure(app.pause({ until: 'soon' }))).kind).toBe('invalid-argument');

    const settings = await app.updateSettings({ changeRequestSubject: '  Review me ' });
    expect(settings).toMatchObject({ changeRequestSubject: 'Review me', syncIntervalMs: 30_000 });
    expect(await failure(app.updateSettings({ changeRequestSubject: 'a\nb' }))).toMatchObject({
      kind: 'invalid-argument',
      field: 'changeRequestSubject',
    });
    expect((await app.updateSettings({ syncIntervalMs: 5_000 })).syncIntervalMs).toBe(5_000);
    expect(await newApp().settings({})).toMatchObject({
      changeRequestSubject: 'Review me',
      syncIntervalMs: 5_000,
    });
    expect((await failure(app.setSpaceEnabled({ spaceId: 's-none', enabled: true }))).kind).toBe(
      'unknown-space',
    );
  });

  it('refuses to sync while another process holds the drain lock, and once logged out', async () => {
    await loginAda();
    await app.listSpaces({});
    const other = await DrainLock.acquire(drainLockPath(join(dir, 'home')), {
      command: 'quire sync --watch',
      pid: process.ppid,
    });
    try {
      expect(await failure(app.syncNow({}))).toMatchObject({
        kind: 'busy',
        runner: { pid: process.ppid, command: 'quire sync --watch' },
      });
      expect(await app.connection({})).toMatchObject({ runner: { pid: process.ppid } });
    } finally {
      await other.release();
    }
    expect(await app.logout({})).toEqual({ loggedOut: true, server: t.url, folder });
    expect(await failure(app.syncNow({}))).toEqual({
      kind: 'logged-out',
      server: t.url,
      message: `not logged in to ${t.url}`,
    });
    // The cache still answers without a token.
    expect((await app.spaceStatuses({})).map((space) => space.id)).toContain(SPACE);
  });

  it('runs the background sync: status and run events, sync now asks the watcher', async () => {
    await loginAda();
    await app.listSpaces({});
    const runs = collect('run');
    const statuses = collect('status');
    const stop = new AbortController();
    let locked = false;
    const watching = app.watch({
      signal: stop.signal,
      intervalMs: 60_000,
      onLocked: () => (locked = true),
    });
    while (runs.length === 0) await new Promise((tick) => setTimeout(tick, 20));
    expect(locked).toBe(true);
    expect(runs[0]).toMatchObject({ kind: 'sync', reason: 'start', offline: false });
    expect(runs[0]!.written).toBeGreaterThan(0);
    expect(await app.syncNow({})).toEqual({ kind: 'requested' });
    const asked = () => runs.find((run) => run.reason === 'request');
    while (asked() === undefined) await new Promise((tick) => setTimeout(tick, 20));
    expect(asked()).toMatchObject({ kind: 'sync', failures: [] });
    stop.abort();
    const final = await watching;
    expect(final.state).toBe('idle');
    expect(statuses.some((status) => status.state === 'syncing')).toBe(true);
    expect((await app.syncNow({})).kind).toBe('ran');
  });
});
