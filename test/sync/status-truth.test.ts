import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

/**
 * Issue 11, "status that tells the truth": `quire status` and `quire sync` through the real
 * services (cache, engine, HTTP client) against the real server, in-process. Acme's Handbook
 * mirrors as README.md (Welcome), guides/README.md (Guides) and guides/setup.md (Setup).
 */
let t: TestServer;
let dir: string;
let handbook: string;

interface StatusJson {
  state: string;
  pending: number;
  lastSync: string | null;
  problems: { path: string; message: string }[];
  unsynced: { spaceId: string; path: string; change: string; from?: string }[];
  spaces: {
    id: string;
    pending: number;
    lastSync: string | null;
    changeRequest: { number: number; subject: string; url: string | null } | null;
  }[];
}

/** One in-process `quire --home <dir>/<home> …`; `env` as the process would see it. */
async function quire(args: string[], options: { home?: string; env?: NodeJS.ProcessEnv } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: options.env ?? {},
    cwd: dir,
    readStdin: async () => '',
  };
  const home = join(dir, options.home ?? 'home');
  const code = await runQuireCli(['--home', home, ...args], io, createQuireServices);
  return { code, stdout, stderr };
}

async function status(): Promise<StatusJson> {
  const result = await quire(['status', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

function handbookStatus(report: StatusJson) {
  return report.spaces.find((space) => space.id === 's-handbook')!;
}

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-status-truth-'));
  const login = await quire([
    'login',
    '--server',
    t.url,
    '--token',
    TOKENS.ada,
    '--folder',
    join(dir, 'mirror'),
  ]);
  expect(login.code, login.stderr).toBe(0);
  expect((await quire(['sync', '--once'])).code).toBe(0);
  handbook = join(dir, 'mirror', 'Acme', 'Handbook');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('quire status tells the truth', { timeout: 60_000 }, () => {
  it('counts edits saved since the last sync, then names the change request they went to', async () => {
    writeFileSync(join(handbook, 'README.md'), '# Welcome\n\nHello, edited.\n');
    writeFileSync(join(handbook, 'guides', 'README.md'), '# Guides\n\nAll of them.\n');
    writeFileSync(join(handbook, 'new-page.md'), '# New page\n\nFresh.\n');
    unlinkSync(join(handbook, 'guides', 'setup.md'));

    const before = await status();
    expect(before.state).toBe('idle');
    expect(before.pending).toBe(4);
    expect(handbookStatus(before).pending).toBe(4);
    expect(before.unsynced).toEqual(
      expect.arrayContaining([
        { spaceId: 's-handbook', path: 'Acme/Handbook/README.md', change: 'edited' },
        { spaceId: 's-handbook', path: 'Acme/Handbook/guides/README.md', change: 'edited' },
        { spaceId: 's-handbook', path: 'Acme/Handbook/new-page.md', change: 'new' },
        { spaceId: 's-handbook', path: 'Acme/Handbook/guides/setup.md', change: 'deleted' },
      ]),
    );
    const text = await quire(['status']);
    expect(text.stdout).toContain('Status: idle, 4 changes pending');
    expect(text.stdout).toContain('not yet synced: Acme/Handbook/new-page.md (new)');
    // Looking changed nothing: the edits are recorded by the next sync, not by status.
    expect((await status()).pending).toBe(4);

    const sync = await quire(['sync', '--once']);
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    const cr = /change request #(\d+) "Edits from [^"]+": (http:\/\/\S+)/.exec(sync.stdout);
    expect(cr, sync.stdout).not.toBeNull();
    expect(cr![2]).toBe(`${t.url}/app/s/s-handbook/~/changes/${cr![1]}`);

    const after = await status();
    expect(after.pending).toBe(0);
    expect(after.unsynced).toEqual([]);
    expect(handbookStatus(after).changeRequest).toEqual({
      number: Number(cr![1]),
      subject: expect.stringMatching(/^Edits from /),
      url: cr![2],
    });
    expect((await quire(['status'])).stdout).toContain(`change request #${cr![1]} "Edits from `);
  });

  it('moves lastSync on every successful sync, also when nothing was pulled', async () => {
    const first = handbookStatus(await status()).lastSync;
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await quire(['sync', '--once'])).code).toBe(0);
    const second = await status();
    expect(handbookStatus(second).lastSync! > first!).toBe(true);
    expect(second.lastSync).toBe(handbookStatus(second).lastSync);
  });

  it('says each thing once: a bad file names its path once, the mass-delete guard once', async () => {
    writeFileSync(join(handbook, 'guides', 'broken.md'), '---\ntitle: [bad\n---\n# Broken\n');
    const sync = await quire(['sync', '--once']);
    expect(sync.code).toBe(2);
    const line = sync.stdout.split('\n').find((row) => row.includes('broken.md'))!;
    expect(line).toMatch(/^ {2}problem: guides\/broken\.md: invalid YAML frontmatter/);
    expect(line.split('broken.md').length - 1).toBe(1);
    const report = await status();
    expect(report.state).toBe('problems');
    // Reported, not pending: it goes nowhere until its frontmatter is fixed.
    expect(report.unsynced).toEqual([]);
    expect(report.problems).toEqual([
      {
        path: 'Acme/Handbook/guides/broken.md',
        message: expect.stringMatching(/^guides\/broken\.md: invalid YAML frontmatter/),
        spaceId: 's-handbook',
        kind: 'not-pushed',
      },
    ]);
    expect((await quire(['status'])).stdout).toContain('  problem: guides/broken.md: invalid');

    unlinkSync(join(handbook, 'guides', 'broken.md'));
    unlinkSync(join(handbook, 'guides', 'setup.md'));
    unlinkSync(join(handbook, 'README.md'));
    const guarded = await quire(['sync', '--once']);
    expect(guarded.code).toBe(2);
    expect(guarded.stdout.split('nothing was pushed').length - 1).toBe(1);
    expect(guarded.stdout).toContain(
      'Run `quire confirm-deletes s-handbook` to push the deletions',
    );
  });
});

describe('quire login', { timeout: 60_000 }, () => {
  it('warns when another Quire home already mirrors the folder', async () => {
    const folder = join(dir, 'mirror');
    // The default home (QUIRE_HOME) is the one that mirrors it; this login uses another.
    const env = { QUIRE_HOME: join(dir, 'home') };
    const login = await quire(
      ['login', '--server', t.url, '--token', TOKENS.ada, '--folder', folder],
      { home: 'second-home', env },
    );
    expect(login.code).toBe(0);
    expect(login.stderr).toContain(
      `quire: warning: the Quire home ${join(dir, 'home')} already mirrors ${folder}`,
    );

    // A new home on a folder that holds a mirror, whoever wrote it.
    const fresh = await quire(
      ['login', '--server', t.url, '--token', TOKENS.ada, '--folder', folder],
      { home: 'third-home' },
    );
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toContain(`${folder} already holds a mirror (Acme/`);

    // Logging the first home in again is no news.
    const again = await quire([
      'login',
      '--server',
      t.url,
      '--token',
      TOKENS.ada,
      '--folder',
      folder,
    ]);
    expect(again.stderr).not.toContain('warning');
  });
});
