import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(REPO, 'bin', 'quire.mjs');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A child env without vitest's loader flags or the developer's QUIRE_* settings. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['QUIRE_HOME'];
  delete env['QUIRE_TOKEN'];
  delete env['QUIRE_CLI_FROM_SOURCE'];
  return env;
}

/**
 * One `node …` process. `closeStdout` closes the reading end of its stdout at once, like
 * `quire status | head -1` once head has its line. Asynchronous: the test server runs in this
 * process and must keep answering.
 */
function run(
  args: readonly string[],
  options: { cwd?: string; closeStdout?: boolean } = {},
): Promise<Result> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? REPO, env: childEnv() });
    let stdout = '';
    let stderr = '';
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-bin-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('bin/quire.mjs picks the bundle only while it is up to date', () => {
  /** A checkout in miniature: the real bin, a "bundle" and a "source" that say which ran. */
  function fakeCheckout(): string {
    const root = mkdtempSync(join(dir, 'checkout-'));
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(BIN, join(root, 'bin', 'quire.mjs'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
    mkdirSync(join(root, 'src', 'main', 'cli'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'main', 'cli', 'quire-main.ts'),
      "export async function main(argv: string[]): Promise<void> { console.log('source', argv.join(' ')); }\n",
    );
    mkdirSync(join(root, 'out', 'cli'), { recursive: true });
    writeFileSync(
      join(root, 'out', 'cli', 'quire.mjs'),
      "export async function main(argv) { console.log('bundle', argv.join(' ')); }\n",
    );
    return root;
  }

  function writeInputs(root: string, builtAt: number): void {
    writeFileSync(
      join(root, 'out', 'cli', 'quire.inputs.json'),
      JSON.stringify({ builtAt, inputs: ['src/main/cli/quire-main.ts'] }),
    );
  }

  it('runs the bundle when no source changed since it was built', async () => {
    const root = fakeCheckout();
    const source = join(root, 'src', 'main', 'cli', 'quire-main.ts');
    const past = new Date(Date.now() - 60_000);
    utimesSync(source, past, past);
    writeInputs(root, Date.now());
    expect((await run([join(root, 'bin', 'quire.mjs'), 'status'])).stdout).toBe('bundle status\n');
  });

  it('runs the sources through tsx when one was saved after the build, or the bundle is missing', async () => {
    const root = fakeCheckout();
    writeInputs(root, Date.now() - 60_000);
    expect((await run([join(root, 'bin', 'quire.mjs'), 'status'])).stdout).toBe('source status\n');

    const fresh = fakeCheckout();
    // No quire.inputs.json: a fresh clone before `npm install` finished, or esbuild missing.
    expect((await run([join(fresh, 'bin', 'quire.mjs'), 'help'])).stdout).toBe('source help\n');
  });
});

describe('the real bundle', { timeout: 120_000 }, () => {
  let server: TestServer;
  let out: string;
  let home: string;
  beforeAll(async () => {
    server = await startTestServer();
    // Inside the checkout, so that better-sqlite3 (kept out of the bundle) resolves as it does
    // for out/cli; a folder of its own so the tests never race with another build of out/cli.
    out = join(REPO, 'out', `cli-test-${process.pid}`);
    const built = await run([join(REPO, 'scripts', 'build-cli.mjs'), '--out', out]);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    home = join(dir, 'home');
  });
  afterAll(async () => {
    rmSync(out, { recursive: true, force: true });
    await server.close();
  });

  /** Runs the bundle's main the way bin/quire.mjs does. */
  function bundled(...args: string[]): Promise<Result> {
    const script = `const { main } = await import(${JSON.stringify(`file://${join(out, 'quire.mjs')}`)}); await main(${JSON.stringify(['--home', home, ...args])});`;
    return run(['--input-type=module', '-e', script], { cwd: dir });
  }

  it('runs help, login and status, with SQLite loaded from node_modules', async () => {
    expect((await bundled('--help')).stdout).toContain('Usage: quire');
    const folder = join(dir, 'mirror');
    const login = await bundled(
      'login',
      '--server',
      server.url,
      '--token',
      TOKENS.ada,
      '--folder',
      folder,
    );
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const status = await bundled('status', '--json');
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ server: server.url, loggedIn: true });
  });

  it('ends quietly, exit 0, when the reader of its output went away', async () => {
    // `quire status | head -1`: the pipe is closed before the command writes its lines.
    const result = await run([BIN, '--home', home, 'status'], { cwd: dir, closeStdout: true });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
