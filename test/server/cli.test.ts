import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminCommands } from '../../src/server/admin/admin-commands';
import { openDatabase } from '../../src/server/db/open-database';
import { DEMO_TOKEN } from '../../src/server/fixture/demo-workspace';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { loadFixture } from '../../src/server/fixture/load-fixture';
import { testFixture, TOKENS } from '../support/test-fixture';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/server/cli.ts');
// An absolute loader URL: `--import tsx` would be resolved from the child's (temporary) cwd.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** Generous: a healthy start takes one to two seconds, but test machines are often busy. */
const START_TIMEOUT_MS = 60_000;
const clock = { now: () => new Date() };

/** One run of `npm run server -- …` as a child process, with its output collected. */
class Cli {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], cwd: string) {
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    this.child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, env });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((done) => this.child.once('close', (code) => done(code)));
  }

  /** Resolves once stdout matches; rejects if the process ends first or the wait is too long. */
  async waitFor(pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout'): Promise<RegExpExecArray> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = pattern.exec(this[stream]);
      if (match) return match;
      if (exited || Date.now() > deadline) {
        throw new Error(
          `stdout never matched ${pattern}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The server's URL, once stdout announces it. */
  async url(): Promise<string> {
    const match = await this.waitFor(/Quire server listening on (http:\/\/127\.0\.0\.1:\d+)/);
    return match[1] ?? '';
  }

  /** SIGTERM, then the exit code (the server closes gracefully and exits 0). */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}

const running: Cli[] = [];
function cli(args: string[], cwd: string): Cli {
  const run = new Cli(args, cwd);
  running.push(run);
  return run;
}
async function run(args: string[], cwd: string) {
  const c = cli(args, cwd);
  const code = await c.exited;
  return { code, stdout: c.stdout, stderr: c.stderr };
}

function get(url: string, path: string, token?: string): Promise<Response> {
  return fetch(`${url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

/** Organization ids visible to a token. */
async function orgIds(url: string, token: string): Promise<string[]> {
  const response = await get(url, '/v1/orgs', token);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items.map((o) => o.id);
}

function expectOneLineFailure(result: { code: number | null; stderr: string }, text: RegExp) {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stderr.trimEnd()).not.toContain('\n');
  expect(result.stderr).toMatch(text);
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
  rmSync(dir, { recursive: true, force: true });
});

function writeFixture(name: string, fixture: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof fixture === 'string' ? fixture : JSON.stringify(fixture));
  return file;
}

const otherFixture: Fixture = {
  users: [{ id: 'u-zed', displayName: 'Zed', email: 'zed@other.test', tokens: ['tok-zed-other'] }],
  organizations: [{ id: 'o-zed', title: 'Zed Org', members: [{ user: 'u-zed', role: 'admin' }] }],
};

describe('server CLI', { timeout: 90_000 }, () => {
  it('loads --fixture into --db, listens on the --port 0 it prints, and stops on SIGTERM', async () => {
    const fixture = writeFixture('fixture.json', testFixture());
    const server = cli(['--port', '0', '--db', join(dir, 's.db'), '--fixture', fixture], dir);
    const url = await server.url();
    expect(await orgIds(url, TOKENS.ada)).toEqual(['o-acme']);
    expect((await get(url, '/v1/orgs')).status).toBe(401);
    expect(server.stdout).toContain(`Loaded ${fixture} into`);
    expect(server.stdout).not.toContain(DEMO_TOKEN);
    expect(await server.stop()).toBe(0);
  });

  it('without --db loads the demo into ./.quire-server/ on first start only', async () => {
    const first = cli(['--port', '0'], dir);
    const url = await first.url();
    await first.waitFor(/Demo token/);
    expect(first.stdout).toContain('Loaded the demo workspace into .quire-server/quire.db');
    expect(first.stdout).toContain(`Demo token: ${DEMO_TOKEN}`);
    expect(existsSync(join(dir, '.quire-server', 'quire.db'))).toBe(true);
    expect(await orgIds(url, DEMO_TOKEN)).toEqual(['o-northwind']);
    // A change made now must survive the restart: the demo is not loaded again over it.
    const renamed = await fetch(`${url}/v1/orgs/o-northwind`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Northwind Renamed' }),
    });
    expect(renamed.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = cli(['--port', '0'], dir);
    const url2 = await second.url();
    await second.waitFor(/Demo token/);
    expect(second.stdout).toContain('Using database .quire-server/quire.db');
    expect(second.stdout).not.toContain('Loaded');
    expect(second.stdout).toContain(`Demo token: ${DEMO_TOKEN}`);
    const org = (await (await get(url2, '/v1/orgs/o-northwind', DEMO_TOKEN)).json()) as {
      title: string;
    };
    expect(org.title).toBe('Northwind Renamed');
  });

  it('starts on a new --db without --fixture empty, and says so', async () => {
    const server = cli(['--port', '0', '--db', join(dir, 'new.db')], dir);
    const url = await server.url();
    await server.waitFor(/admin create-user/);
    expect(server.stdout).toContain(
      `Using database ${join(dir, 'new.db')}: it is empty (no users, no tokens, no organizations)`,
    );
    expect(server.stdout).not.toContain(DEMO_TOKEN);
    expect((await get(url, '/v1/orgs', DEMO_TOKEN)).status).toBe(401);
  });

  it("the README's example: examples/workspace.json loads into a new --db", async () => {
    const example = resolve(dirname(CLI), '../../examples/workspace.json');
    const db = join(dir, 'data', 'quire.db');
    const server = cli(['--port', '0', '--db', db, '--fixture', example], dir);
    const url = await server.url();
    await server.waitFor(/Loaded/);
    expect(await orgIds(url, 'tok-ada-example')).toEqual(['o-acme']);
    const spaces = (await (await get(url, '/v1/orgs/o-acme/spaces', 'tok-ada-example')).json()) as {
      items: { title: string }[];
    };
    expect(spaces.items.map((space) => space.title)).toEqual(['Handbook']);
  });

  it('does not load a fixture into a database that is not empty, and says so', async () => {
    const file = join(dir, 'existing.db');
    const db = openDatabase(file);
    loadFixture(db, testFixture(), clock);
    db.close();
    const fixture = writeFixture('other.json', otherFixture);
    const server = cli(['--port', '0', '--db', file, '--fixture', fixture], dir);
    const url = await server.url();
    await server.waitFor(/not loaded/, 'stderr');
    expect(server.stderr).toBe(
      `quire-server: database ${file} is not empty; fixture ${fixture} not loaded\n`,
    );
    expect((await get(url, '/v1/orgs', 'tok-zed-other')).status).toBe(401);
    expect(await orgIds(url, TOKENS.ada)).toEqual(['o-acme']);
  });

  it('exits non-zero with one clear line for a bad fixture, leaving no database', async () => {
    const unknownMember = testFixture();
    unknownMember.organizations[0]!.members!.push({ user: 'u-ghost', role: 'read' });
    // Passes every check but the database's own UNIQUE constraint on hostnames.
    const sameHostname: Fixture = {
      users: [],
      organizations: [
        { id: 'o-a', title: 'A org', hostname: 'docs' },
        { id: 'o-b', title: 'B org', hostname: 'docs' },
      ],
    };
    const cases: [fixture: string, db: string, message: RegExp][] = [
      [
        writeFixture('member.json', unknownMember),
        'member.db',
        /member u-ghost of organization o-acme is not a user/,
      ],
      [
        writeFixture('schema.json', { users: [{}], organizations: [] }),
        'schema.db',
        /Invalid .*schema\.json: \/users\/0/,
      ],
      [
        writeFixture('host.json', sameHostname),
        'host.db',
        /Cannot load organization o-b: UNIQUE constraint failed/,
      ],
    ];
    const results = await Promise.all(
      cases.map(([fixture, db]) =>
        run(['--port', '0', '--db', join(dir, db), '--fixture', fixture], dir),
      ),
    );
    results.forEach((result, i) => {
      const [, db, message] = cases[i]!;
      expectOneLineFailure(result, message);
      expect(result.stderr).toMatch(/^quire-server: /);
      expect(result.stdout).not.toContain('listening');
      // Checks that need no database run before one is created.
      if (db !== 'host.db') expect(existsSync(join(dir, db)), db).toBe(false);
    });
  });

  it('logs one JSON line per request with id, method, path, status and duration, never a token', async () => {
    const fixture = writeFixture('fixture.json', testFixture());
    const server = cli(['--port', '0', '--db', join(dir, 'l.db'), '--fixture', fixture], dir);
    const url = await server.url();
    const responses = [
      await get(url, '/v1/orgs', TOKENS.ada),
      await get(url, '/v1/orgs/o-acme/members?limit=2&secret=query-secret-value', TOKENS.bob),
      await get(url, '/v1/no-such-route', TOKENS.ada),
      await get(url, '/v1/orgs', 'tok-not-a-real-token'),
      await get(url, '/v1/orgs'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 401, 401]);
    expect(await server.stop()).toBe(0);

    const lines = server.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line['msg'] === 'request');
    expect(requests).toHaveLength(responses.length);
    for (const line of requests) {
      expect(line).toEqual(
        expect.objectContaining({
          reqId: expect.any(String),
          method: 'GET',
          path: expect.stringMatching(/^\/v1\//),
          status: expect.any(Number),
          durationMs: expect.any(Number),
        }),
      );
    }
    expect(requests.map((line) => line['reqId'])).toEqual(
      responses.map((r) => r.headers.get('x-request-id')),
    );
    expect(requests[1]?.['path']).toBe('/v1/orgs/o-acme/members');
    const everything = server.stdout + server.stderr;
    for (const secret of [
      TOKENS.ada,
      TOKENS.bob,
      'tok-not-a-real-token',
      'Bearer',
      'query-secret-value',
    ]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('admin CLI', { timeout: 90_000 }, () => {
  it('creates a user and an organization and adds the member', async () => {
    const db = join(dir, 'admin.db');
    const user = await run(
      [
        'admin',
        'create-user',
        '--db',
        db,
        '--name',
        'Ada Lovelace',
        '--email',
        'ada@acme.test',
        '--id',
        'u-ada',
      ],
      dir,
    );
    expect(user).toEqual({ code: 0, stdout: 'u-ada\n', stderr: '' });
    // The database exists now, so the next two commands may share it.
    const [org, generated] = await Promise.all([
      run(
        [
          'admin',
          'create-org',
          '--db',
          db,
          '--title',
          'Acme Docs',
          '--email-domain',
          'acme.test',
          '--email-domain',
          'acme.example',
        ],
        dir,
      ),
      run(['admin', 'create-user', '--db', db, '--name', 'Bob', '--email', 'bob@acme.test'], dir),
    ]);
    expect(org.code).toBe(0);
    const orgId = org.stdout.trim();
    expect(orgId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(generated.stdout.trim()).toMatch(/^[A-Za-z0-9]{20}$/);
    const member = await run(
      ['admin', 'add-member', '--db', db, '--org', orgId, '--user', 'u-ada', '--role', 'admin'],
      dir,
    );
    expect(member).toEqual({ code: 0, stdout: 'added\n', stderr: '' });

    const check = openDatabase(db);
    expect(check.prepare('SELECT title, email_domains FROM organizations').get()).toEqual({
      title: 'Acme Docs',
      email_domains: '["acme.test","acme.example"]',
    });
    expect(check.prepare('SELECT organization_id, user_id, role FROM members').all()).toEqual([
      { organization_id: orgId, user_id: 'u-ada', role: 'admin' },
    ]);
    check.close();
  });

  it('issues a token that works against the API until revoke-token, then 401', async () => {
    const db = join(dir, 'tokens.db');
    const setup = openDatabase(db);
    const admin = new AdminCommands(setup, clock);
    admin.createUser({ id: 'u-ada', displayName: 'Ada', email: 'ada@acme.test' });
    admin.createOrganization({ id: 'o-acme', title: 'Acme' });
    admin.addMember('o-acme', 'u-ada', 'admin');
    setup.close();

    const server = cli(['--port', '0', '--db', db], dir);
    const issued = await run(
      ['admin', 'issue-token', '--db', db, '--user', 'u-ada', '--label', 'ci'],
      dir,
    );
    expect(issued.code).toBe(0);
    const token = issued.stdout.trim();
    expect(token).toMatch(/^qt_[\w-]+$/);
    const url = await server.url();
    expect(await orgIds(url, token)).toEqual(['o-acme']);

    const revoked = await run(['admin', 'revoke-token', '--db', db, '--token', token], dir);
    expect(revoked).toEqual({ code: 0, stdout: 'revoked\n', stderr: '' });
    expect((await get(url, '/v1/orgs', token)).status).toBe(401);
  });

  it('rejects bad input with a non-zero exit and one line', async () => {
    const db = join(dir, 'bad.db');
    const setup = openDatabase(db);
    const admin = new AdminCommands(setup, clock);
    admin.createUser({ id: 'u-ada', displayName: 'Ada', email: 'ada@acme.test' });
    admin.createOrganization({ id: 'o-acme', title: 'Acme' });
    setup.close();

    const cases: [args: string[], message: RegExp][] = [
      [
        ['add-member', '--org', 'o-acme', '--user', 'u-ghost', '--role', 'read'],
        /admin add-member: User u-ghost does not exist/,
      ],
      [
        ['add-member', '--org', 'o-acme', '--user', 'u-ada', '--role', 'owner'],
        /--role must be one of read, comment, edit, review, create, admin, guest/,
      ],
      [['issue-token', '--user', 'u-ghost'], /User u-ghost does not exist/],
      [['create-user', '--name', 'Ada'], /admin create-user: --email is required/],
      [['create-user', '--name', 'Ada', '--email', 'ADA@acme.test'], /already exists/],
      [['revoke-token', '--token', 'qt_not-issued'], /No active token matches/],
      [['create-org', '--title', 'Acme', '--bogus'], /Unknown option '--bogus'/],
      [['delete-everything'], /unknown admin command delete-everything/],
    ];
    const results = await Promise.all(
      cases.map(([args]) => run(['admin', ...args, ...(args.length > 1 ? ['--db', db] : [])], dir)),
    );
    results.forEach((result, i) => {
      expectOneLineFailure(result, cases[i]![1]);
      expect(result.stdout).toBe('');
    });
    // A missing flag is caught before any database is created in the working directory.
    expect(existsSync(join(dir, '.quire-server'))).toBe(false);
  });
});
