import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { remoteEdit } from './sync-test-kit';

/**
 * `quire conflicts` and `quire resolve` over the real services (cache, engine, HTTP client) and
 * the real server, run in-process: a conflict on Acme's Handbook page guides/setup.md.
 */
const SPACE = 's-handbook';
const BASE = '# Setup\n\nOne.\n\nTwo.\n\nThree.\n';
const LOCAL = BASE.replace('Two.', 'Two, mine.');
const REMOTE = BASE.replace('Two.', 'Two, theirs.');

let t: TestServer;
let dir: string;
let setupFile: string;

async function quire(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: dir,
    readStdin: async () => '',
  };
  const code = await runQuireCli(['--home', join(dir, 'home'), ...args], io, createQuireServices);
  return { code, stdout, stderr };
}

interface ListedConflict {
  id: number;
  spaceId: string;
  spaceTitle: string;
  pageId: string | null;
  pageTitle: string;
  path: string;
  file: string;
  kind: string;
  message: string;
  createdAt: string;
}

async function listed(): Promise<ListedConflict[]> {
  const result = await quire('conflicts', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ListedConflict[];
}

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-conflicts-cli-'));
  const login = await quire(
    'login',
    '--server',
    t.url,
    '--token',
    TOKENS.ada,
    '--folder',
    join(dir, 'mirror'),
  );
  expect(login.code, login.stderr).toBe(0);
  await remoteEdit(t, SPACE, [
    { operation: 'update_page', page: 'p-setup', document: { markdown: BASE } },
  ]);
  expect((await quire('sync', '--once')).code).toBe(0);
  setupFile = join(dir, 'mirror', 'Acme', 'Handbook', 'guides', 'setup.md');
  writeFileSync(setupFile, LOCAL);
  await remoteEdit(t, SPACE, [
    { operation: 'update_page', page: 'p-setup', document: { markdown: REMOTE } },
  ]);
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('quire conflicts / resolve', () => {
  it('lists a conflict, refuses bad input without changing anything, resolves it', async () => {
    const sync = await quire('sync', '--once');
    expect(sync.code).toBe(2);
    expect(sync.stdout).toContain('1 conflict');

    const [conflict, ...others] = await listed();
    expect(others).toEqual([]);
    expect(conflict).toEqual({
      id: expect.any(Number),
      spaceId: SPACE,
      spaceTitle: 'Handbook',
      pageId: 'p-setup',
      pageTitle: 'Setup',
      path: 'guides/setup.md',
      file: setupFile,
      kind: 'content',
      message: expect.stringContaining('both sides edited line 5'),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const plain = await quire('conflicts');
    expect(plain.stdout).toContain(`#${conflict!.id} content: Handbook "Setup" ${setupFile}`);

    // Still exits 2 while the conflict is open, though nothing new happened.
    expect((await quire('sync', '--once')).code).toBe(2);

    const id = String(conflict!.id);
    const notUtf8 = join(dir, 'latin1.md');
    writeFileSync(notUtf8, Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
    const bad: [string[], number, RegExp][] = [
      [['resolve', '424242', '--mine'], 1, /no open conflict #424242/],
      [['resolve', 'abc', '--mine'], 1, /no conflict "abc"/],
      [['resolve', id], 2, /needs one of --mine, --theirs or --merged/],
      [['resolve', id, '--mine', '--theirs'], 2, /only one of/],
      [['resolve', id, '--theirs', '--merged', 'x.md'], 2, /only one of/],
      [
        ['resolve', id, '--merged', 'missing.md'],
        1,
        /cannot read the merged file .*missing\.md \(ENOENT\)/,
      ],
      [['resolve', id, '--merged', notUtf8], 1, /is not UTF-8 text/],
      [['resolve', id, '--mine', 'extra'], 2, /usage: quire resolve/],
      [['conflicts', '--mine'], 2, /conflicts does not take --mine/],
    ];
    for (const [args, code, message] of bad) {
      const result = await quire(...args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr).toMatch(/^quire: [^\n]*\n$/);
      expect(result.stderr).toMatch(message);
    }
    expect(readFileSync(setupFile, 'utf8')).toBe(LOCAL);
    expect((await listed()).map((open) => open.id)).toEqual([conflict!.id]);

    const mergedFile = join(dir, 'merged.md');
    const merged = BASE.replace('Two.', 'Two, agreed on.');
    writeFileSync(mergedFile, merged);
    const resolved = await quire('resolve', id, '--merged', 'merged.md');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain(`Resolved conflict #${id}`);
    expect(readFileSync(setupFile, 'utf8')).toBe(merged);
    expect(await listed()).toEqual([]);
    expect((await quire('resolve', id, '--mine')).code).toBe(1);

    const after = await quire('sync', '--once');
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect(readFileSync(setupFile, 'utf8')).toBe(merged);
    expect((await quire('conflicts')).stdout).toContain('No conflicts.');
  });

  it('conflicts show prints the versions with diff3 markers, and --json the three texts', async () => {
    expect((await quire('sync', '--once')).code).toBe(2);
    const [conflict] = await listed();
    const id = String(conflict!.id);

    const shown = await quire('conflicts', 'show', id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(
      [
        `#${id} content: Handbook "Setup"`,
        `  ${conflict!.message}`,
        `1 region changed on both sides, marked below; save the text without markers to a file and run \`quire resolve ${id} --merged <file>\`.`,
        '# Setup',
        '',
        'One.',
        '',
        `<<<<<<< mine (${setupFile})`,
        'Two, mine.',
        '||||||| base (last synced)',
        'Two.',
        '=======',
        'Two, theirs.',
        '>>>>>>> theirs (the server)',
        '',
        'Three.',
        '',
      ].join('\n'),
    );

    const json = await quire('conflicts', 'show', id, '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: conflict!.id,
      path: 'guides/setup.md',
      binary: false,
      base: BASE,
      mine: LOCAL,
      theirs: REMOTE,
    });

    for (const [args, message] of [
      [['conflicts', 'show', '424242'], /no open conflict #424242/],
      [['conflicts', 'show', 'x'], /no conflict "x"/],
    ] as const) {
      const result = await quire(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    expect((await quire('conflicts', 'show')).code).toBe(2);
    // Looking resolves nothing.
    expect((await listed()).map((open) => open.id)).toEqual([conflict!.id]);
    expect(readFileSync(setupFile, 'utf8')).toBe(LOCAL);
  });

  it('--theirs writes the server version into the file', async () => {
    expect((await quire('sync', '--once')).code).toBe(2);
    const [conflict] = await listed();
    const result = await quire('resolve', String(conflict!.id), '--theirs');
    expect(result.code, result.stderr).toBe(0);
    // Nothing of this device's is pushed for it: the output must not say so.
    expect(result.stdout).not.toMatch(/pushes/);
    expect(result.stdout).toContain("The file now holds the server's version");
    expect(readFileSync(setupFile, 'utf8')).toBe(REMOTE);
    expect((await quire('sync', '--once')).code).toBe(0);
    expect(readFileSync(setupFile, 'utf8')).toBe(REMOTE);
  });
});
