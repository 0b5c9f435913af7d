import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/start-test-server';
import { contentFixture, TOKENS } from '../../../test/support/test-fixture';
import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import type { DesktopSettings } from '../../shared/contract/host';
import { createQuireServices } from '../cli/create-quire-services';
import { quireHome } from '../config/quire-home';
import type { HostPorts } from './host-ports';
import { QuireApp } from './quire-app';

/** The commands a host lends ports for (opener, demo, desktop settings), with fake ports. */
const SPACE = 's-handbook';

let t: TestServer;
let dir: string;
let folder: string;
let app: QuireApp;
let opened: string[];
let demoStarts: number;
let desktop: DesktopSettings;

function newApp(host?: HostPorts): QuireApp {
  return new QuireApp({
    services: createQuireServices(quireHome(join(dir, 'home'))),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
    ...(host ? { host } : {}),
  });
}

function fakeHost(): HostPorts {
  return {
    openPath: async (target) => void opened.push(target),
    startDemoServer: async () => {
      demoStarts++;
      return { server: t.url, token: TOKENS.ada };
    },
    desktopSettings: {
      read: async () => desktop,
      update: async (update) => (desktop = { ...desktop, ...update }),
    },
    plainTextSecrets: () => true,
  };
}

async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  return (error as CommandFailedError).error;
}

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-host-'));
  folder = join(dir, 'mirror');
  opened = [];
  demoStarts = 0;
  desktop = { launchAtLogin: false, notifications: true };
});
afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('QuireApp host commands', () => {
  it('answers `unavailable` for what a host without ports cannot do', async () => {
    app = newApp();
    expect(await app.capabilities({})).toEqual({
      openPath: false,
      startDemo: false,
      desktopSettings: false,
    });
    expect(await failure(app.startDemo({ folder }))).toMatchObject({
      kind: 'unavailable',
      command: 'startDemo',
    });
    expect((await failure(app.desktopSettings({}))).kind).toBe('unavailable');
    expect((await failure(app.updateDesktopSettings({ notifications: false }))).kind).toBe(
      'unavailable',
    );
    expect((await failure(app.openPath({ path: 'a.md' }))).kind).toBe('unavailable');
    expect(await app.connection({})).toEqual({ state: 'new' });
  });

  it('starts the demo through its port: logged in, spaces listed and enabled', async () => {
    app = newApp(fakeHost());
    expect(await app.capabilities({})).toEqual({
      openPath: true,
      startDemo: true,
      desktopSettings: true,
    });
    expect(await app.connection({})).toEqual({ state: 'new', plainTextSecrets: true });
    const result = await app.startDemo({ folder });
    expect(demoStarts).toBe(1);
    expect(result).toMatchObject({ server: t.url, folder });
    expect(await app.connection({})).toMatchObject({
      state: 'logged-in',
      folder,
      plainTextSecrets: true,
    });
    const handbook = (await app.spaceStatuses({})).find((space) => space.id === SPACE);
    expect(handbook?.enabled).toBe(true);
  });

  it('opens a space folder or a mirror path, and nothing outside the mirror', async () => {
    app = newApp(fakeHost());
    await app.login({ server: t.url, token: TOKENS.ada, folder });
    await app.listSpaces({});
    await app.openPath({ spaceId: SPACE });
    await app.openPath({ path: 'Acme/Handbook/README.md' });
    expect(opened).toEqual([
      join(folder, 'Acme', 'Handbook'),
      join(folder, 'Acme', 'Handbook', 'README.md'),
    ]);
    expect(await failure(app.openPath({ spaceId: 's-nope' }))).toMatchObject({
      kind: 'unknown-space',
    });
    // The parser refuses these first; the application layer checks the resolved path again.
    expect(await failure(app.openPath({ path: '../outside' }))).toMatchObject({
      kind: 'invalid-argument',
      field: 'path',
    });
    expect(await failure(app.openPath({ conflictId: 99 }))).toMatchObject({
      kind: 'unknown-conflict',
      id: 99,
    });
    expect(opened).toHaveLength(2);
  });

  it('reads and updates the desktop settings through their port', async () => {
    app = newApp(fakeHost());
    expect(await app.desktopSettings({})).toEqual({ launchAtLogin: false, notifications: true });
    expect(await app.updateDesktopSettings({ launchAtLogin: true })).toEqual({
      launchAtLogin: true,
      notifications: true,
    });
  });
});
