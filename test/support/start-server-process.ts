import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { testFixture } from './test-fixture';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  /** Raw fetch with a bearer token; bodies other than text or bytes are sent as JSON. */
  request(method: string, path: string, token: string | null, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real server as its own process (`npm run server` with a fixture file), for tests that
 * measure how it answers under load: the test's own work then never stalls the server's loop.
 */
export async function startServerProcess(
  options: { fixture?: Fixture; args?: readonly string[] } = {},
): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-server-process-'));
  const fixtureFile = join(dir, 'fixture.json');
  writeFileSync(fixtureFile, JSON.stringify(options.fixture ?? testFixture()));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/server/cli.ts',
      ...['--port', '0', '--db', join(dir, 'server.db'), '--fixture', fixtureFile],
      ...['--log-level', 'silent'],
      ...(options.args ?? []),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    request: (method, path, token, body) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined
          ? {
              body:
                typeof body === 'string' || body instanceof Uint8Array
                  ? body
                  : JSON.stringify(body),
            }
          : {}),
      }),
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
