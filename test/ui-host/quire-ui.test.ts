import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import { collectEvents, eventually, invokeOverHttp, parseUiUrl } from './ui-host-kit';

/** `quire ui` as a user runs it (bin/quire.mjs), against the real server over loopback. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/quire.mjs');

let server: TestServer;
let dir: string;
let home: string;
let renderer: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-ui-cli-'));
  home = join(dir, 'home');
  // A stand-in for the built renderer: this test is about the CLI and the host, not the UI.
  renderer = join(dir, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Quire test UI</title>');
});
afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function quire(args: string[]): Promise<{ code: number; output: string }> {
  let output = '';
  const write = (chunk: string) => {
    output += chunk;
    return true;
  };
  const code = await runQuireCli(
    ['--home', home, ...args],
    { stdout: { write }, stderr: { write }, env: {}, cwd: dir, readStdin: async () => '' },
    createQuireServices,
  );
  return { code, output };
}

function startUi(args: string[] = []): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_RENDERER_DIR: renderer };
  delete env['NODE_OPTIONS'];
  delete env['QUIRE_HOME'];
  delete env['QUIRE_TOKEN'];
  const started = spawn(process.execPath, [BIN, '--home', home, 'ui', ...args], { cwd: dir, env });
  child = started;
  let output = '';
  started.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  started.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child: started, output: () => output };
}

describe('quire ui', () => {
  it('prints the URL first, serves the UI, runs commands over HTTP with events, stops on Ctrl-C', async () => {
    const folder = join(dir, 'mirror');
    const login = await quire([
      'login',
      '--server',
      server.url,
      '--token',
      TOKENS.ada,
      '--folder',
      folder,
    ]);
    expect(login.code, login.output).toBe(0);

    const ui = startUi();
    const first = await eventually(
      'the URL',
      () => /^(.*)\n/.exec(ui.output())?.[1],
      30_000,
      ui.output,
    );
    const url = /^Quire UI: (http:\/\/127\.0\.0\.1:\d+\/#secret=[\w-]{43})$/.exec(first)?.[1];
    expect(url, ui.output()).toBeDefined();
    const { origin, secret } = parseUiUrl(url!);

    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Quire test UI');
    expect((await fetch(`${origin}/api/commands/status`, { method: 'POST' })).status).toBe(401);

    await eventually(
      'the background sync',
      () => (ui.output().includes('in the background') ? true : undefined),
      30_000,
      ui.output,
    );
    const events = await collectEvents(origin, secret);
    const sync = await invokeOverHttp(origin, secret, 'syncNow');
    // The watcher of this very process runs the sync.
    expect(sync).toEqual({ ok: true, result: { kind: 'requested' } });
    await eventually(
      'a run event',
      () => (events.events.some((e) => e.event === 'run') ? true : undefined),
      30_000,
      ui.output,
    );
    const status = await invokeOverHttp(origin, secret, 'status');
    expect(status.ok, JSON.stringify(status)).toBe(true);
    expect(status.result).toMatchObject({ tokenRejected: false });
    await events.close();

    ui.child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => ui.child.once('close', done));
    expect(code, ui.output()).toBe(0);
    expect(ui.output()).toContain('Stopped.');
  }, 90_000);

  it('serves the first-run screen before any login, and says when the UI is not built', async () => {
    const ui = startUi(['--port', '0']);
    const url = await eventually(
      'the URL',
      () => /Quire UI: (\S+)/.exec(ui.output())?.[1],
      30_000,
      ui.output,
    );
    const { origin, secret } = parseUiUrl(url);
    const connection = await invokeOverHttp(origin, secret, 'connection');
    expect(connection).toEqual({ ok: true, result: { state: 'new' } });
    ui.child.kill('SIGTERM');
    expect(await new Promise((done) => ui.child.once('close', done))).toBe(0);

    rmSync(join(renderer, 'index.html'));
    const unbuilt = startUi();
    const exit = await new Promise((done) => unbuilt.child.once('close', done));
    expect(exit).toBe(1);
    expect(unbuilt.output()).toMatch(/the UI is not built: run `npm run build`/);
  }, 60_000);
});
