import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, invokeOverHttp, parseUiUrl } from './ui-host-kit';

/**
 * `npm start` where Electron cannot run (here: `--demo`, which a machine without the binary gets
 * by itself): the embedded demo server, a login with the demo token, the mirror in ./quire-demo of
 * the user's folder, and the UI on 127.0.0.1. Builds the renderer first when it is stale.
 */
const START = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/start.mjs');

let dir: string;
let child: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-npm-start-'));
});
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start without Electron', () => {
  it('says so first, serves the UI with the demo workspace synced into ./quire-demo', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: dir };
    delete env['NODE_OPTIONS'];
    child = spawn(process.execPath, [START, '--demo'], { cwd: dir, env });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const url = await eventually(
      'the URL',
      () => /Quire UI: (\S+)/.exec(output)?.[1],
      60_000,
      () => output,
    );
    expect(output.split('\n')[0]).toMatch(
      /^Quire: running the demo in a browser instead of the desktop app/,
    );
    const { origin, secret } = parseUiUrl(url);

    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /<script[^>]+src="\.?(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    expect((await fetch(`${origin}${script}`)).status).toBe(200);

    const status = await invokeOverHttp(origin, secret, 'status');
    expect(status.ok, JSON.stringify(status)).toBe(true);
    expect(status.result).toMatchObject({ tokenRejected: false });
    const handbook = join(dir, 'quire-demo', 'Northwind Labs', 'Beacon Handbook', 'README.md');
    await eventually(
      'the demo mirror',
      () => (existsSync(handbook) ? true : undefined),
      30_000,
      () => output,
    );

    child.kill('SIGTERM');
    const code = await new Promise((done) => child!.once('exit', done));
    expect(code, output).toBe(0);
    expect(output).toContain('Stopped.');
  }, 90_000);
});
