import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';

/**
 * Issue 11: a change the server refuses is one problem on the files concerned, never a block on
 * anything else, and the user can always see it (`quire status`), retry it or drop it. Through
 * the CLI against the real server: the refusals are the server's own (a field over its limit, a
 * slug another page has), nothing is faked.
 */
const SPACE = 's-handbook';
const TOKEN = TOKENS.ada;
/** The space folder, relative to the mirror folder. */
const HANDBOOK = 'Acme/Handbook';
/** An emoji the server refuses (at most 50 characters) and the client does not check. */
const LONG_EMOJI = 'x'.repeat(60);

let server: TestServer;
let dir: string;
let home: string;
let folder: string;

beforeEach(async () => {
  server = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-refused-'));
  home = join(dir, 'home');
  folder = join(dir, 'mirror');
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function quire(...args: string[]): Promise<{ code: number; output: string }> {
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

async function loginAndSync(): Promise<void> {
  const login = await quire('login', '--server', server.url, '--token', TOKEN, '--folder', folder);
  expect(login.code, login.output).toBe(0);
  const first = await quire('sync', '--once');
  expect(first.code, first.output).toBe(0);
}

/** Writes a file of the Handbook's folder. */
function write(path: string, text: string): void {
  const file = join(folder, HANDBOOK, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

interface Refused {
  id: number;
  spaceId: string;
  kind: string;
  path: string;
  reason: string;
  holds: string[];
}
interface StatusJson {
  state: string;
  pending: number;
  problems: { path: string; message: string; kind: string }[];
  refused: Refused[];
}

async function status(): Promise<StatusJson> {
  const result = await quire('status', '--json');
  expect(result.code, result.output).toBe(0);
  return JSON.parse(result.output) as StatusJson;
}

interface TreePage {
  id: string;
  title: string;
  slug: string;
  pages?: TreePage[];
}

async function workingChangeRequestId(): Promise<string | undefined> {
  const { data } = await server.client(TOKEN).spaces.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  return (data.items as { id: string; subject?: string }[]).find((item) =>
    item.subject?.startsWith('Edits from '),
  )?.id;
}

/** The working change request's pages as `Title[Child, …]`, in order. */
async function draftShape(): Promise<string> {
  const cr = await workingChangeRequestId();
  if (cr === undefined) return '';
  const response = await server.request(
    'GET',
    `/v1/spaces/${SPACE}/change-requests/${cr}/content`,
    TOKEN,
  );
  const shape = (pages: TreePage[]): string =>
    pages
      .map((page) => (page.pages?.length ? `${page.title}[${shape(page.pages)}]` : page.title))
      .join(', ');
  return shape(((await response.json()) as { pages: TreePage[] }).pages);
}

describe('changes the server refuses', { timeout: 120_000 }, () => {
  it('a refused new page is a problem on its file; the rest of the push and every later change go out; fixing the file sends it with the page it held', async () => {
    await loginAndSync();
    write('bad/README.md', `---\nemoji: ${LONG_EMOJI}\n---\n\n# Bad\n\nRefused.\n`);
    write('bad/child.md', '# Child\n\nUnder the refused page.\n');
    write('fine.md', '# Fine\n\nAccepted.\n');
    write('guides/setup.md', '# Setup\n\nEdited beside a refused page.\n');

    const push = await quire('sync', '--once');
    expect(push.code, push.output).toBe(2);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Fine');
    // The problem names the file once, with the server's reason once.
    const problemLines = push.output
      .split('\n')
      .filter((line) => line.startsWith('  problem: bad/README.md'));
    expect(problemLines).toHaveLength(1);
    expect(problemLines[0]!.split('bad/README.md')).toHaveLength(2);
    expect(problemLines[0]!.match(/50 characters/g)).toHaveLength(1);

    const refusedStatus = await status();
    expect(refusedStatus.state).toBe('problems');
    expect(refusedStatus.refused).toEqual([
      {
        id: expect.any(Number),
        spaceId: SPACE,
        kind: 'insert_page',
        path: `${HANDBOOK}/bad/README.md`,
        reason: expect.stringMatching(/emoji.*50 characters/),
        holds: [`${HANDBOOK}/bad/child.md`],
      },
    ]);
    const [refused] = refusedStatus.refused;
    expect(refusedStatus.problems.map((problem) => problem.path).sort()).toEqual([
      `${HANDBOOK}/bad/README.md`,
      `${HANDBOOK}/bad/child.md`,
    ]);
    expect(
      refusedStatus.problems.find((problem) => problem.path.endsWith('child.md'))!.message,
    ).toContain(`refused change #${refused!.id}: retry or drop it`);
    const text = await quire('status');
    expect(text.output).toMatch(
      new RegExp(`Refused #${refused!.id} insert_page ${HANDBOOK}/bad/README.md: .*emoji`),
    );
    // The CLI names its own commands; the engine's message (also shown by the app) does not.
    expect(text.output).toContain('`quire retry <id>` sends a refused change again');

    // A later change is not held back by the refused one.
    write('later.md', '# Later\n\nAfter the refusal.\n');
    const later = await quire('sync', '--once');
    expect(later.code, later.output).toBe(2);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Fine, Later');

    // Fixing the file sends the page, then the page it held, in one sync.
    write('bad/README.md', '---\nemoji: 🙂\n---\n\n# Bad\n\nFixed.\n');
    const fixed = await quire('sync', '--once');
    expect(fixed.code, fixed.output).toBe(0);
    // Where the first push placed it (new pages in path order), before the later ones.
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Bad[Child], Fine, Later');
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, problems: [], refused: [] });
  });

  it('quire drop gives a refused change up: the file stays, local-only, until it is edited again', async () => {
    await loginAndSync();
    write('bad/README.md', `---\nemoji: ${LONG_EMOJI}\n---\n\n# Bad\n\nRefused.\n`);
    write('bad/child.md', '# Child\n\nUnder the refused page.\n');
    expect((await quire('sync', '--once')).code).toBe(2);
    const [refused] = (await status()).refused;

    const unknown = await quire('drop', String(refused!.id + 100));
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/no refused change/);
    const dropped = await quire('drop', String(refused!.id));
    expect(dropped.code, dropped.output).toBe(0);
    expect(dropped.output).toContain(`${HANDBOOK}/bad/README.md stays as it is`);
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, problems: [], refused: [] });
    expect(existsSync(join(folder, HANDBOOK, 'bad', 'README.md'))).toBe(true);
    expect(existsSync(join(folder, HANDBOOK, 'bad', 'child.md'))).toBe(true);

    // Not pushed again, and kept by the pull.
    const quiet = await quire('sync', '--once');
    expect(quiet.code, quiet.output).toBe(0);
    expect(quiet.output).not.toMatch(/pushed/);
    expect(await draftShape()).toBe('Welcome, Guides[Setup]');
    expect(readFileSync(join(folder, HANDBOOK, 'bad', 'README.md'), 'utf8')).toContain(LONG_EMOJI);

    // Edited again, it is a new page again; the page it held follows once edited too.
    write('bad/README.md', '# Bad\n\nFixed.\n');
    write('bad/child.md', '# Child\n\nEdited.\n');
    const again = await quire('sync', '--once');
    expect(again.code, again.output).toBe(0);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Bad[Child]');
  });

  it('deleting the folder of a refused new page cancels it and what it held', async () => {
    await loginAndSync();
    write('bad/README.md', `---\nemoji: ${LONG_EMOJI}\n---\n\n# Bad\n\nRefused.\n`);
    write('bad/child.md', '# Child\n\nUnder the refused page.\n');
    expect((await quire('sync', '--once')).code).toBe(2);
    expect((await status()).refused).toHaveLength(1);

    rmSync(join(folder, HANDBOOK, 'bad'), { recursive: true });
    const after = await quire('sync', '--once');
    expect(after.code, after.output).toBe(0);
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, problems: [], refused: [] });
    expect(await draftShape()).toBe('Welcome, Guides[Setup]');
  });

  it('quire retry sends a refused change again once the server’s objection is gone', async () => {
    await loginAndSync();
    write('guides/setup.md', '# Setup\n\nEdited.\n');
    expect((await quire('sync', '--once')).code).toBe(0);
    // Someone adds a page with the slug `notes` to the working change request.
    const cr = (await workingChangeRequestId())!;
    const api = server.client(TOKEN).spaces;
    const { data } = await api.updateChangeRequestContent(
      SPACE,
      cr,
      {
        changes: [
          {
            operation: 'insert_page',
            ref: 'theirs',
            title: 'Their notes',
            slug: 'notes',
            document: { markdown: '# Their notes\n' },
          },
        ],
      },
      { compat: false },
    );
    const theirs = (data as unknown as { changes: { page: { id: string } }[] }).changes[0]!.page.id;
    write('notes.md', '# Notes\n\nMine.\n');
    expect((await quire('sync', '--once')).code).toBe(2);
    const [refused] = (await status()).refused;
    expect(refused).toMatchObject({ path: `${HANDBOOK}/notes.md`, reason: /slug "notes"/ });

    expect((await quire('retry', '1', '--all')).code).toBe(2);
    // Still refused while their page is there: retried (all, without an id), refused again.
    const all = await quire('retry');
    expect(all.code, all.output).toBe(0);
    expect(all.output).toMatch(/Queued 1 refused change again/);
    expect((await quire('sync', '--once')).code).toBe(2);
    expect((await status()).refused).toHaveLength(1);
    expect((await quire('retry', String((await status()).refused[0]!.id))).code).toBe(0);
    expect((await quire('sync', '--once')).code).toBe(2);

    await api.updateChangeRequestContent(SPACE, cr, {
      changes: [{ operation: 'delete_page', page: theirs }],
    });
    const retried = await quire('retry', '--all');
    expect(retried.code, retried.output).toBe(0);
    expect(retried.output).toMatch(/Queued 1 refused change again/);
    expect((await status()).refused).toEqual([]);
    const sent = await quire('sync', '--once');
    expect(sent.code, sent.output).toBe(0);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Notes');
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, refused: [] });
  });

  it('two files whose names differ only in Unicode form are a problem on both; everything else is pushed (defect 2)', async () => {
    await loginAndSync();
    const nfc = 'Caf\u00e9.md';
    const nfd = 'Cafe\u0301.md';
    write(nfc, '# Café composed\n');
    write(nfd, '# Café decomposed\n');
    write('other.md', '# Other\n');
    const push = await quire('sync', '--once');
    expect(push.code, push.output).toBe(2);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Other');
    const problems = (await status()).problems;
    expect(problems.map((problem) => problem.path).sort()).toEqual(
      [`${HANDBOOK}/${nfc}`, `${HANDBOOK}/${nfd}`].sort(),
    );
    for (const problem of problems) {
      const other = problem.path.endsWith(nfc) ? nfd : nfc;
      expect(problem.message).toContain(other);
    }

    // Nothing else is held back, and removing one twin pushes the other.
    write('after.md', '# After\n');
    expect((await quire('sync', '--once')).code).toBe(2);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Other, After');
    rmSync(join(folder, HANDBOOK, nfd));
    const settled = await quire('sync', '--once');
    expect(settled.code, settled.output).toBe(0);
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Other, After, Café composed');
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, problems: [] });
  });

  it('a new folder with a README and a page inside goes out in one push, parent first (defect 6)', async () => {
    await loginAndSync();
    write('tutorials/README.md', '# Tutorials\n');
    write('tutorials/first.md', '# First steps\n');
    write('tutorials/deeper/README.md', '# Deeper\n');
    write('tutorials/deeper/last.md', '# Last\n');
    const push = await quire('sync', '--once');
    expect(push.code, push.output).toBe(0);
    expect(push.output).toContain('4 changes pushed');
    expect(await draftShape()).toBe('Welcome, Guides[Setup], Tutorials[Deeper[Last], First steps]');
    const again = await quire('sync', '--once');
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toMatch(/pushed/);
    expect(await status()).toMatchObject({ state: 'idle', pending: 0, problems: [] });
  });
});
