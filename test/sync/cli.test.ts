import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/token-hash';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

/** The real `quire` bin, run the way `npx quire` runs it. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/quire.mjs');
const posix = process.platform !== 'win32';
const TOKEN = TOKENS.ada;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let dir: string;
let home: string;
let folder: string;
/** Everything the CLI printed in the current test, checked for the token afterwards. */
let printed: string[];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cli-sync-'));
  home = join(dir, 'home');
  folder = join(dir, 'mirror');
  printed = [];
});
afterEach(() => {
  // The token may be in secrets.json and nowhere else: not in the cache, config, logs, the mirror
  // or anything printed.
  for (const token of Object.values(TOKENS)) {
    for (const file of filesUnder(dir)) {
      if (file === join(home, 'secrets.json')) continue;
      expect(readFileSync(file).includes(token), `token in ${relative(dir, file)}`).toBe(false);
    }
    for (const output of printed) expect(output).not.toContain(token);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** One run of `node bin/quire.mjs …` in the temp folder; `--home` is added unless `env` sets one. */
function quire(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; home?: boolean } = {},
): Promise<Result> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // The child must not inherit vitest's loader flags, nor a QUIRE_* from the developer's shell.
  delete env['NODE_OPTIONS'];
  if (!options.env?.['QUIRE_HOME']) delete env['QUIRE_HOME'];
  if (!options.env?.['QUIRE_TOKEN']) delete env['QUIRE_TOKEN'];
  const fullArgs = options.home === false ? args : ['--home', home, ...args];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...fullArgs], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.stdin.end(options.stdin ?? '');
    child.once('close', (code) => {
      printed.push(stdout, stderr);
      done({ code, stdout, stderr });
    });
  });
}

function login(token: string = TOKEN, serverUrl: string = server.url): Promise<Result> {
  return quire(['login', '--server', serverUrl, '--token', token, '--folder', folder]);
}

function expectOneLineFailure(result: Result, code: number, text: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stderr).toMatch(/^quire: [^\n]+\n$/);
  expect(result.stderr).toMatch(text);
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A loopback port nobody listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  const { port } = probe.address() as { port: number };
  await new Promise((closed) => probe.close(closed));
  return port;
}

interface SpaceJson {
  id: string;
  title: string;
  enabled: boolean;
}

async function listSpaces(): Promise<SpaceJson[]> {
  const result = await quire(['spaces', '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as SpaceJson[];
}

describe('quire CLI against a real server', { timeout: 120_000 }, () => {
  it('logs in: checks the token, keeps it in a 0600 secrets file, writes only the mirror folder', async () => {
    const result = await login();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Logged in to ${server.url} as Ada Lovelace <ada@acme.test>.`);
    expect(result.stdout).toMatch(/3 spaces, 3 enabled\./);

    const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as unknown;
    expect(config).toEqual({
      server: server.url,
      folder,
      user: { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@acme.test' },
    });
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).toContain(TOKEN);
    if (posix) {
      expect(statSync(join(home, 'secrets.json')).mode & 0o777).toBe(0o600);
      expect(statSync(home).mode & 0o777).toBe(0o700);
    }
    expect(statSync(folder).isDirectory()).toBe(true);
    // Engine state stays in the home: the mirror folder gets no cache, config or secrets.
    expect(filesUnder(folder).filter((f) => /\.(db|json)$|secrets|\.quire/.test(f))).toEqual([]);
  });

  it('a bad URL, an unreachable server and a wrong token each fail with their own line', async () => {
    expectOneLineFailure(
      await login(TOKEN, 'ftp://127.0.0.1/'),
      2,
      /^quire: invalid server URL "ftp:\/\/127.0.0.1\/": /,
    );
    expectOneLineFailure(await login(TOKEN, `${server.url}/api`), 2, /invalid server URL/);
    const port = await closedPort();
    expectOneLineFailure(
      await login(TOKEN, `http://127.0.0.1:${port}`),
      1,
      new RegExp(`^quire: cannot reach server http://127\\.0\\.0\\.1:${port}`),
    );
    expectOneLineFailure(
      await login('tok-not-a-real-token'),
      1,
      /^quire: the server rejected the token\n$/,
    );
    // Nothing was kept from the failed attempts.
    expect(existsSync(join(home, 'secrets.json'))).toBe(false);
    expect(existsSync(join(home, 'config.json'))).toBe(false);
  });

  it('accepts a server URL ending in /v1 and stores the bare origin', async () => {
    expect((await login(TOKEN, `${server.url}/v1/`)).code).toBe(0);
    const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
      server: string;
    };
    expect(config.server).toBe(server.url);
  });

  it('finds the home through QUIRE_HOME and reads the token from stdin', async () => {
    const env = { QUIRE_HOME: home };
    const args = ['login', '--server', server.url, '--token', '-', '--folder', folder];
    const result = await quire(args, { env, stdin: `${TOKEN}\n`, home: false });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(home, 'config.json'))).toBe(true);
    const status = await quire(['status', '--json'], { env, home: false });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ server: server.url, loggedIn: true });
  });

  it('lists spaces as JSON and enables and disables them', async () => {
    expect((await login()).code).toBe(0);
    const spaces = await listSpaces();
    expect(spaces.map((s) => s.id).sort()).toEqual(['s-api', 's-handbook', 's-secret']);
    expect(spaces.find((s) => s.id === 's-handbook')).toMatchObject({
      title: 'Handbook',
      enabled: true,
    });

    const disabled = await quire(['spaces', 'disable', 's-secret']);
    expect(disabled).toMatchObject({ code: 0, stderr: '' });
    expect((await listSpaces()).find((s) => s.id === 's-secret')?.enabled).toBe(false);
    expect((await quire(['spaces', 'enable', 's-secret'])).code).toBe(0);
    expect((await listSpaces()).find((s) => s.id === 's-secret')?.enabled).toBe(true);

    expectOneLineFailure(await quire(['spaces', 'enable', 's-nope']), 1, /no space "s-nope"/);
    expectOneLineFailure(await quire(['spaces', 'enable']), 2, /spaces enable <spaceId>/);
  });

  it('pulls once with sync --once and reports per space in status --json', async () => {
    expect((await login()).code).toBe(0);
    expect((await quire(['spaces', 'disable', 's-secret'])).code).toBe(0);

    const before = await quire(['status', '--json']);
    expect(before.code).toBe(0);
    const handbookBefore = (
      JSON.parse(before.stdout) as { spaces: { id: string; lastSync: string | null }[] }
    ).spaces.find((s) => s.id === 's-handbook');
    expect(handbookBefore?.lastSync).toBeNull();

    const sync = await quire(['sync', '--once']);
    expect(sync.stderr).toBe('');
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/Handbook \(s-handbook\): pulled revision/);
    const markdown = filesUnder(folder)
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(f, 'utf8'));
    expect(markdown.some((text) => text.includes('Hello.'))).toBe(true);
    expect(markdown.some((text) => text.includes('Install it.'))).toBe(true);

    const status = await quire(['status', '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as {
      spaces: {
        id: string;
        enabled: boolean;
        state: string;
        revision: string | null;
        pages: number;
        lastSync: string | null;
        errors: string[];
      }[];
    };
    const handbook = report.spaces.find((s) => s.id === 's-handbook');
    expect(handbook).toMatchObject({ enabled: true, errors: [] });
    expect(handbook?.revision).toEqual(expect.any(String));
    expect(handbook?.pages).toBeGreaterThanOrEqual(3);
    expect(handbook?.lastSync).toEqual(expect.any(String));
    expect(report.spaces.find((s) => s.id === 's-secret')).toMatchObject({ enabled: false });

    // Nothing moved on the server: the second pass has nothing to pull.
    const again = await quire(['sync', '--once']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Handbook \(s-handbook\): up to date/);

    // A vanished mirror folder (unmounted disk?) fails the command instead of being recreated.
    rmSync(folder, { recursive: true });
    expectOneLineFailure(await quire(['sync', '--once']), 1, /mirror folder .* is missing/);
    expect(existsSync(folder)).toBe(false);
  });

  it('subject names new working change requests, survives a new login, and --reset undoes it', async () => {
    expectOneLineFailure(await quire(['subject', 'x']), 1, /not logged in/);
    expect((await login()).code).toBe(0);
    const shown = await quire(['subject']);
    expect(shown.stdout).toMatch(/^Edits from .+ \(the default\)\n$/);
    expectOneLineFailure(await quire(['subject', 'x'.repeat(101)]), 2, /1 to 100 characters/);
    expectOneLineFailure(await quire(['subject', 'a', '--reset']), 2, /not both/);

    const set = await quire(['subject', '  Docs from the laptop ']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/titled "Docs from the laptop"/);
    expect((await login()).code).toBe(0);
    expect((await quire(['subject'])).stdout).toBe('Docs from the laptop\n');

    expect((await quire(['sync', '--once'])).code).toBe(0);
    writeFileSync(join(folder, 'Acme', 'Handbook', 'README.md'), '# Welcome\n\nEdited.\n');
    expect((await quire(['sync', '--once'])).code).toBe(0);
    const { data } = await server.client(TOKEN).spaces.listChangeRequestsForSpace('s-handbook', {
      status: ChangeRequestStatus.Draft,
    });
    const subjects = (data.items as { subject?: string }[]).map((cr) => cr.subject);
    expect(subjects).toContain('Docs from the laptop');

    expect((await quire(['subject', '--reset'])).code).toBe(0);
    expect((await quire(['subject'])).stdout).toMatch(/\(the default\)/);
  });

  it('commands after logout need a new login; status still works from the cache', async () => {
    expectOneLineFailure(await quire(['spaces']), 1, /not logged in/);
    expect((await login()).code).toBe(0);
    expect((await quire(['logout'])).code).toBe(0);
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).not.toContain(TOKEN);
    expectOneLineFailure(await quire(['sync', '--once']), 1, /not logged in/);
    const status = await quire(['status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ loggedIn: false });
  });

  it('a revoked token is reported as such on the next command', async () => {
    expect((await login(TOKENS.eve)).code).toBe(0);
    const revoke = server.db.prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ?');
    revoke.run(new Date().toISOString(), hashToken(TOKENS.eve));
    try {
      expectOneLineFailure(await quire(['spaces']), 1, /the server rejected the token/);
      expectOneLineFailure(await quire(['sync', '--once']), 1, /the server rejected the token/);
    } finally {
      revoke.run(null, hashToken(TOKENS.eve));
    }
  });
});
