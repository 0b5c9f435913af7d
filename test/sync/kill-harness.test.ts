import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import type { RemotePage } from '../../src/main/sync-ports';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { QuireChildren } from './quire-child';

/**
 * kill -9 harness: a child `quire sync --watch` is SIGKILLed at random moments while a burst of
 * edits (page edits and new pages) is written to its folder, 30 times, and restarted after each
 * kill (edits keep coming while it is down). Afterwards one more sync settles the outbox, the
 * working change request is merged on the server as the user would, and a last sync runs. Then
 * every file's latest content is on the server and in the folder, and no page is duplicated (page
 * ids unique, each written content in one page only, one page per new file).
 *
 * Seeded: QUIRE_KILL_SEED replays a run (the seed is in every failure message). No timing is
 * asserted; waits poll with generous limits.
 */

const TOKEN = 'tok-kill-me';
const SPACE = 's-kill';
const KILLS = 30;
const SEED = Number(process.env['QUIRE_KILL_SEED'] ?? Date.now() % 1_000_000);

function fixture(): Fixture {
  return {
    users: [{ id: 'u-kill', displayName: 'Kim', email: 'kim@kill.test', tokens: [TOKEN] }],
    organizations: [
      {
        id: 'o-kill',
        title: 'Kill',
        members: [{ user: 'u-kill', role: 'admin' }],
        spaces: [
          {
            id: SPACE,
            title: 'Notes',
            pages: [
              { id: 'k-home', title: 'Home', markdown: '# Home\n\nWelcome.\n' },
              { id: 'k-alpha', title: 'Alpha', markdown: '# Alpha\n\nFirst.\n' },
              {
                id: 'k-guides',
                title: 'Guides',
                markdown: '# Guides\n\nHow to.\n',
                pages: [{ id: 'k-setup', title: 'Setup', markdown: '# Setup\n\nInstall.\n' }],
              },
              { id: 'k-beta', title: 'Beta', markdown: '# Beta\n\nSecond.\n' },
            ],
          },
        ],
      },
    ],
  };
}

/** xorshift32: a small seeded generator, so a run can be replayed from its seed. */
function seeded(seed: number): (max: number) => number {
  let state = seed >>> 0 || 1;
  return (max) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % max;
  };
}

let server: TestServer;
let dir: string;
let home: string;
let folder: string;
let children: QuireChildren;

beforeAll(async () => {
  server = await startTestServer({ fixture: fixture(), config: { rateLimitMax: 1e9 } });
  dir = mkdtempSync(join(tmpdir(), 'quire-kill-'));
  home = join(dir, 'home');
  folder = join(dir, 'mirror');
  children = new QuireChildren({ home, cwd: dir });
});
afterAll(async () => {
  children?.killAll();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const start = (args: string[]) => children.start(args);
const quire = (args: string[]) => children.run(args);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  limitMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (seed ${SEED})`);
    await sleep(25);
  }
}

function flatten(pages: readonly RemotePage[]): RemotePage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

async function mainPages(): Promise<RemotePage[]> {
  const { data: space } = await server.client(TOKEN).spaces.getSpaceById(SPACE);
  const client = new WorkspaceClient({ endpoint: server.url, token: TOKEN });
  const revision = await client.getRevision(SPACE, (space as { revision: string }).revision);
  return flatten(revision.pages);
}

describe('quire sync --watch under kill -9', () => {
  it(`keeps every edit and duplicates no page (seed ${SEED})`, { timeout: 120_000 }, async () => {
    const random = seeded(SEED);
    const context = (extra = '') => `seed ${SEED}${extra}`;
    const login = await quire([
      'login',
      '--server',
      server.url,
      '--token',
      TOKEN,
      '--folder',
      folder,
    ]);
    expect(login.code, login.output).toBe(0);
    const first = await quire(['sync', '--once']);
    expect(first.code, first.output).toBe(0);
    const root = join(folder, 'Kill', 'Notes');
    expect(existsSync(join(root, 'alpha.md')), context()).toBe(true);

    /** Files the harness writes: path → its title and latest body line. */
    const latest = new Map<string, { title: string; line: string }>([
      ['README.md', { title: 'Home', line: 'Welcome.' }],
      ['alpha.md', { title: 'Alpha', line: 'First.' }],
      ['guides/README.md', { title: 'Guides', line: 'How to.' }],
      ['guides/setup.md', { title: 'Setup', line: 'Install.' }],
      ['beta.md', { title: 'Beta', line: 'Second.' }],
    ]);
    let writes = 0;
    let created = 0;
    const log: string[] = [];
    /** One edit of the burst: a page file rewritten, or (one time in four) a new page. */
    const edit = () => {
      const line = `Kill edit e${++writes}.`;
      if (random(4) === 0 && created < 12) {
        const n = ++created;
        const path = random(2) === 0 ? `new${n}.md` : `guides/new${n}.md`;
        latest.set(path, { title: `New${n}`, line });
      } else {
        const paths = [...latest.keys()];
        const path = paths[random(paths.length)]!;
        latest.set(path, { title: latest.get(path)!.title, line });
      }
      const path = [...latest].find(([, value]) => value.line === line)![0];
      const absolute = join(root, path);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, `# ${latest.get(path)!.title}\n\n${line}\n`);
      log.push(`e${writes} → ${path}`);
    };

    for (let kill = 0; kill < KILLS; kill++) {
      const watch = start(['sync', '--watch', '--interval', '1s']);
      // A quarter of the kills fall anywhere from the start (loading, start-up scan and sync),
      // the others while it watches, during the burst.
      const early = random(4) === 0;
      if (!early) {
        await eventually(context(`, kill ${kill}: the watcher starting`), () =>
          watch.output().includes('Watching') || watch.child.exitCode !== null ? true : undefined,
        );
      }
      const killAt = Date.now() + (early ? 300 + random(1200) : random(700));
      const edits = 1 + random(5);
      for (let i = 0; i < edits; i++) {
        const at = Date.now() + random(Math.max(1, killAt - Date.now()));
        await sleep(Math.max(0, at - Date.now()));
        edit();
      }
      await sleep(Math.max(0, killAt - Date.now()));
      const alive = watch.child.exitCode === null;
      watch.child.kill('SIGKILL');
      const exit = await watch.exited;
      log.push(
        `kill ${kill} (${early ? 'early' : 'watching'}): ${alive ? exit.signal : `exited ${exit.code}`}`,
      );
      expect(
        alive,
        context(`, kill ${kill}: the watcher stopped by itself\n${watch.output()}`),
      ).toBe(true);
      // Edits made while Quire is not running are found by the next start-up scan.
      if (random(3) === 0) edit();
      // The cache survives every kill.
      const db = new Database(join(home, 'cache.db'));
      try {
        expect(db.pragma('integrity_check', { simple: true }), context()).toBe('ok');
      } finally {
        db.close();
      }
    }

    // Settle: a clean sync pushes what is left; the user merges the working change request.
    const settle = await quire(['sync', '--once']);
    expect([0, 2], context(`\n${settle.output}`)).toContain(settle.code);
    const api = server.client(TOKEN).spaces;
    const { data } = await api.listChangeRequestsForSpace(SPACE, {
      status: ChangeRequestStatus.Draft,
    });
    const working = (data.items as { id: string; subject?: string }[]).filter((cr) =>
      cr.subject?.startsWith('Edits from '),
    );
    expect(working.length, context(': one working change request')).toBe(1);
    const merged = await api.mergeChangeRequest(SPACE, working[0]!.id);
    expect((merged.data as { result?: string }).result, context()).toBe('merge');
    const last = await quire(['sync', '--once']);

    const pages = await mainPages();
    const trace = () => context(`\n${log.join('\n')}\n${JSON.stringify(pages, null, 1)}`);
    const ids = pages.map((page) => page.id);
    expect(new Set(ids).size, trace()).toBe(ids.length);
    const titles = pages.map((page) => page.title);
    expect(new Set(titles).size, `a page is duplicated: ${titles.join(', ')}\n${trace()}`).toBe(
      titles.length,
    );
    for (const [path, { title, line }] of latest) {
      const holders = pages.filter((page) => (page.markdown ?? '').includes(line));
      expect(
        holders.map((page) => page.title),
        `${path}: its latest content (${line}) on the server once\n${trace()}`,
      ).toEqual([title]);
      expect(readFileSync(join(root, path), 'utf8'), `${path} in the folder\n${trace()}`).toBe(
        `# ${title}\n\n${line}\n`,
      );
    }
    expect(last.code, context(`\n${last.output}`)).toBe(0);
    const status = await quire(['status', '--json']);
    expect(status.code, status.output).toBe(0);
    const json = JSON.parse(status.output) as { pending: number; problems: unknown[] };
    expect({ pending: json.pending, problems: json.problems }, trace()).toEqual({
      pending: 0,
      problems: [],
    });
  });
});
