import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli } from '../../src/main/cli/quire-cli';
import { DEMO_TOKEN, demoFixture } from '../../src/server/fixture/demo-workspace';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { QuireChildren, type RunningQuire } from './quire-child';

/**
 * Issue 11, defect 1: with `quire sync --watch` running on the demo workspace, a page saved into
 * a group's folder (`getting-started/` has no README: it is the "Getting started" group), then a
 * new folder with a README, were pushed with an `at` one past the top level's end: the server
 * refused the insert (`at: must be at most 7`) and it stayed failed. Positions must be counted in
 * the working change request's tree, whatever order the watcher's events come in.
 */
const SPACE = 's-handbook';

let server: TestServer;
let dir: string;
let home: string;
let folder: string;
let children: QuireChildren;

beforeEach(async () => {
  server = await startTestServer({ fixture: demoFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-watch-positions-'));
  home = join(dir, 'home');
  folder = join(dir, 'mirror');
  children = new QuireChildren({ home, cwd: dir });
});
afterEach(async () => {
  children.killAll();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function quireHere(args: string[]): Promise<{ code: number; output: string }> {
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

async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  limitMs = 60_000,
  output: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${output()}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

interface TreePage {
  title: string;
  pages?: TreePage[];
}

/** The working change request's tree: top-level titles, and each page's children's titles. */
async function draftTree(): Promise<TreePage[] | undefined> {
  const api = server.client(DEMO_TOKEN).spaces;
  const { data } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const cr = (data.items as { id: string; subject?: string }[]).find((item) =>
    item.subject?.startsWith('Edits from '),
  );
  if (cr === undefined) return undefined;
  const response = await server.request(
    'GET',
    `/v1/spaces/${SPACE}/change-requests/${cr.id}/content`,
    DEMO_TOKEN,
  );
  return ((await response.json()) as { pages: TreePage[] }).pages;
}

interface StatusJson {
  state: string;
  pending: number;
  problems: { path: string; message: string }[];
  refused: { id: number; path: string; reason: string }[];
}

async function statusJson(): Promise<StatusJson> {
  const result = await quireHere(['status', '--json']);
  expect(result.code, result.output).toBe(0);
  return JSON.parse(result.output) as StatusJson;
}

/** Logs in to the demo workspace and starts `sync --watch`; resolves after its start-up sync. */
async function startWatching(): Promise<{ watch: RunningQuire; space: string }> {
  const login = await quireHere([
    'login',
    '--server',
    server.url,
    '--token',
    DEMO_TOKEN,
    '--folder',
    folder,
  ]);
  expect(login.code, login.output).toBe(0);
  const watch = children.start(['sync', '--watch', '--interval', '300s']);
  const space = join(folder, 'Northwind Labs', 'Beacon Handbook');
  await eventually(
    'the start-up sync',
    () =>
      existsSync(join(space, 'SUMMARY.md')) && watch.output().includes('status: idle')
        ? true
        : undefined,
    120_000,
    watch.output,
  );
  return { watch, space };
}

/** Waits until the watcher has nothing left to do, and returns the status then. */
function settled(): Promise<StatusJson> {
  return eventually('a settled status', async () => {
    const json = await statusJson();
    return json.pending === 0 && json.state !== 'syncing' ? json : undefined;
  });
}

const TIMEOUT = { timeout: 180_000 };

describe('sync --watch places new pages against the working change request', TIMEOUT, () => {
  it('a page saved in a group folder, then a new folder with a README: both where they belong', async () => {
    const { watch, space } = await startWatching();
    writeFileSync(join(space, 'getting-started', 'e-page.md'), '# E page\n\nHello.\n');
    const inGroup = await eventually('the page in the group', async () => {
      const tree = await draftTree();
      const group = tree?.find((page) => page.title === 'Getting started');
      return group?.pages?.some((page) => page.title === 'E page') ? tree : undefined;
    });

    mkdirSync(join(space, 'sectione'));
    writeFileSync(join(space, 'sectione', 'README.md'), '# Section E\n\nText.\n');
    const after = await eventually('the new section', async () => {
      const tree = await draftTree();
      return tree?.some((page) => page.title === 'Section E') ? tree : undefined;
    });
    // Appended at the top level, after the pages that were there; the group kept its new page.
    expect(after.map((page) => page.title)).toEqual([
      ...inGroup.map((page) => page.title),
      'Section E',
    ]);

    expect(await settled()).toMatchObject({ state: 'idle', problems: [], refused: [] });
    expect(watch.output()).not.toMatch(/refused|must be at most/);
    watch.child.kill('SIGTERM');
    expect(await watch.exited).toEqual({ code: 0, signal: null });
  });
});

describe('sync --watch and a change the server refuses', TIMEOUT, () => {
  it('reports it on its file with state problems, and keeps pushing every later save', async () => {
    const { watch, space } = await startWatching();
    // An emoji over the server's 50 characters: the client does not check it, the server refuses.
    writeFileSync(
      join(space, 'refused.md'),
      `---\nemoji: ${'x'.repeat(60)}\n---\n\n# Refused page\n\nText.\n`,
    );
    // The refusal's problem is read from the outbox row the drain marked: any status read that
    // shows the refusal shows its problem too.
    const refused = await eventually('the refusal', async () => {
      const json = await statusJson();
      return json.refused.length > 0 ? json : undefined;
    });
    expect(refused.problems.length).toBeGreaterThan(0);
    expect(refused.refused).toEqual([
      expect.objectContaining({
        path: 'Northwind Labs/Beacon Handbook/refused.md',
        reason: expect.stringMatching(/emoji/),
      }),
    ]);
    expect(refused.problems).toEqual([
      expect.objectContaining({ path: 'Northwind Labs/Beacon Handbook/refused.md' }),
    ]);
    await eventually('the problems state', () =>
      watch.output().includes('status: problems') ? true : undefined,
    );

    writeFileSync(join(space, 'getting-started', 'later.md'), '# Later page\n\nSaved after.\n');
    await eventually('the later save on the server', async () => {
      const tree = await draftTree();
      const group = tree?.find((page) => page.title === 'Getting started');
      return group?.pages?.some((page) => page.title === 'Later page') ? true : undefined;
    });
    expect((await draftTree())!.some((page) => page.title === 'Refused page')).toBe(false);
    // Refused, it is a problem, not a change pending.
    expect(await settled()).toMatchObject({ state: 'problems', pending: 0 });
    expect((await statusJson()).refused).toHaveLength(1);

    watch.child.kill('SIGTERM');
    expect(await watch.exited).toEqual({ code: 0, signal: null });
  });
});
