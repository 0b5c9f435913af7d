import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli } from '../../src/main/cli/quire-cli';
import { hashToken } from '../../src/server/auth/token-hash';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { QuireChildren } from './quire-child';
import { remoteEdit } from './sync-test-kit';

/**
 * `quire sync --watch` as a child process against the real server: the start-up sync mirrors the
 * spaces, a saved file reaches the working change request, a remote edit is pulled on the
 * interval, SIGTERM stops it cleanly (exit 0, lock released, nothing left queued), and while it
 * runs a second drainer (`sync --once`) is refused. No timing is asserted: every wait polls with
 * a generous overall limit.
 */
const SPACE = 's-handbook';
const TOKEN = TOKENS.ada;

let server: TestServer;
let dir: string;
let home: string;
let folder: string;
let children: QuireChildren;
let serverClosed: boolean;

beforeEach(async () => {
  server = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-watch-'));
  home = join(dir, 'home');
  folder = join(dir, 'mirror');
  children = new QuireChildren({ home, cwd: dir });
  serverClosed = false;
});
afterEach(async () => {
  children.killAll();
  if (!serverClosed) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = (args: string[]) => children.start(args);

/** The same commands in this process (no child start-up cost), for those that need no signal. */
async function quireHere(args: string[]): Promise<{ code: number; output: string }> {
  let output = '';
  const write = (chunk: string) => {
    output += chunk;
    return true;
  };
  const code = await runQuireCli(
    ['--home', home, ...args],
    {
      stdout: { write },
      stderr: { write },
      env: {},
      cwd: dir,
      readStdin: async () => '',
    },
    createQuireServices,
  );
  return { code, output };
}

/** Polls `check` until it returns a value other than undefined (or the limit passes). */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  limitMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** The Markdown of a page in the space's draft change request Quire made, if any. */
async function draftMarkdown(pageId: string): Promise<string | undefined> {
  const api = server.client(TOKEN).spaces;
  const { data } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const cr = (data.items as { id: string; subject?: string }[]).find((item) =>
    item.subject?.startsWith('Edits from '),
  );
  if (cr === undefined) return undefined;
  const page = await api.getPageInChangeRequestById(SPACE, cr.id, pageId, { format: 'markdown' });
  return (page.data as { markdown?: string }).markdown;
}

interface StatusJson {
  state: string;
  pending: number;
  runner: { pid: number; command: string } | null;
  problems: { path: string; message: string }[];
  spaces: { id: string; state: string; pending: number }[];
}

async function statusJson(): Promise<StatusJson> {
  const result = await quireHere(['status', '--json']);
  expect(result.code, result.output).toBe(0);
  return JSON.parse(result.output) as StatusJson;
}

async function login(): Promise<void> {
  const result = await quireHere([
    'login',
    '--server',
    server.url,
    '--token',
    TOKEN,
    '--folder',
    folder,
  ]);
  expect(result.code, result.output).toBe(0);
}

describe('quire sync --watch', { timeout: 180_000 }, () => {
  it('pushes a saved file, pulls a remote edit, refuses a second drainer and stops on SIGTERM', async () => {
    await login();
    const watch = start(['sync', '--watch', '--interval', '1s']);
    const setup = join(folder, 'Acme', 'Handbook', 'guides', 'setup.md');
    await eventually('the start-up sync', () =>
      existsSync(setup) && watch.output().includes('status: idle') ? true : undefined,
    );

    // While it runs, it holds the drain lock: another drainer is refused, status names it.
    const second = await quireHere(['sync', '--once']);
    expect(second.code).toBe(1);
    expect(second.output).toMatch(/another Quire process is syncing.*quire sync --watch/);
    const during = await statusJson();
    expect(during.runner).toMatchObject({ pid: watch.child.pid, command: 'quire sync --watch' });

    writeFileSync(setup, '# Setup\n\nSaved while watching.\n');
    await eventually('the saved edit on the server', async () =>
      (await draftMarkdown('p-setup'))?.includes('Saved while watching.') ? true : undefined,
    );

    const readme = join(folder, 'Acme', 'Handbook', 'README.md');
    await remoteEdit(server, SPACE, [
      {
        operation: 'update_page',
        page: 'p-welcome',
        document: { markdown: '# Welcome\n\nChanged on the server.\n' },
      },
    ]);
    await eventually('the remote edit in the folder', () =>
      readFileSync(readme, 'utf8').includes('Changed on the server.') ? true : undefined,
    );

    watch.child.kill('SIGTERM');
    const exit = await watch.exited;
    expect(exit, watch.output()).toEqual({ code: 0, signal: null });
    expect(watch.output()).toContain('Stopped.');
    expect(existsSync(join(home, 'sync.lock'))).toBe(false);

    const after = await statusJson();
    expect(after.runner).toBeNull();
    expect(after.pending).toBe(0);
    expect(after.problems).toEqual([]);
    expect(after.state).toBe('idle');
    // The local edit is intact and a one-off sync finds nothing more to do.
    expect(readFileSync(setup, 'utf8')).toBe('# Setup\n\nSaved while watching.\n');
    const once = await quireHere(['sync', '--once']);
    expect(once.code, once.output).toBe(0);
  });

  it('status --json lists files not pushed and why; sync --once exits 2 for them, 0 once fixed', async () => {
    await login();
    const first = await quireHere(['sync', '--once']);
    expect(first.code, first.output).toBe(0);
    expect(await statusJson()).toMatchObject({ state: 'idle', pending: 0, problems: [] });

    const setup = join(folder, 'Acme', 'Handbook', 'guides', 'setup.md');
    writeFileSync(setup, '---\ntitle: [unclosed\n---\n\n# Setup\n\nBroken.\n');
    const messy = await quireHere(['sync', '--once']);
    expect(messy.code, messy.output).toBe(2);
    const status = await statusJson();
    expect(status.state).toBe('problems');
    expect(status.problems).toEqual([
      expect.objectContaining({
        path: 'Acme/Handbook/guides/setup.md',
        message: expect.stringMatching(/frontmatter/i),
      }),
    ]);

    writeFileSync(setup, '# Setup\n\nFixed.\n');
    const clean = await quireHere(['sync', '--once']);
    expect(clean.code, clean.output).toBe(0);
    expect(await statusJson()).toMatchObject({ state: 'idle', pending: 0, problems: [] });
  });

  it('keeps running while the server is gone: offline in status --json, then a clean stop', async () => {
    await login();
    const watch = start(['sync', '--watch', '--interval', '1s']);
    await eventually('the start-up sync', () =>
      watch.output().includes('status: idle') ? true : undefined,
    );
    await server.close();
    serverClosed = true;
    const offline = await eventually('the offline state', async () => {
      const status = await statusJson();
      return status.state === 'offline' ? status : undefined;
    });
    expect(offline.runner).toMatchObject({ pid: watch.child.pid });
    expect(watch.child.exitCode).toBeNull();
    expect(watch.output()).toContain('status: offline');

    watch.child.kill('SIGTERM');
    const exit = await watch.exited;
    expect(exit, watch.output()).toEqual({ code: 0, signal: null });
    // Stopped: nobody knows about the network any more, the cache says idle.
    expect(await statusJson()).toMatchObject({ state: 'idle', runner: null });
  });

  it('finds edits made while it was not running, and takes over a stale lock', async () => {
    await login();
    const first = await quireHere(['sync', '--once']);
    expect(first.code, first.output).toBe(0);
    const setup = join(folder, 'Acme', 'Handbook', 'guides', 'setup.md');
    writeFileSync(setup, '# Setup\n\nEdited while Quire was not running.\n');
    // A lock left by a process that died (a pid that cannot exist).
    writeFileSync(
      join(home, 'sync.lock'),
      JSON.stringify({
        pid: 2 ** 30,
        host: (await import('node:os')).hostname(),
        startedAt: new Date(0).toISOString(),
        command: 'quire sync --watch',
      }),
    );

    const watch = start(['sync', '--watch']);
    await eventually('the offline edit on the server', async () =>
      (await draftMarkdown('p-setup'))?.includes('Edited while Quire was not running.')
        ? true
        : undefined,
    );
    watch.child.kill('SIGINT');
    const exit = await watch.exited;
    expect(exit, watch.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(home, 'sync.lock'))).toBe(false);
  });
});

interface HeldResponse {
  /** Resolves when a matching request arrived and its answer is being held. */
  held: Promise<void>;
  /** Lets the held answer go to the client. */
  release: () => void;
}

/**
 * Holds the server's answer to the next request matching `match` (the server has handled it,
 * the client waits): the request is "in flight" for as long as the test wants, no timing needed.
 * Also records every request the server receives.
 */
function holdNextResponse(match: (request: { method?: string; url?: string }) => boolean): {
  hold: HeldResponse;
  requests: { method: string; url: string }[];
} {
  const requests: { method: string; url: string }[] = [];
  let onHeld = () => {};
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  server.server.app.server.prependListener(
    'request',
    (request: IncomingMessage, response: ServerResponse) => {
      requests.push({ method: request.method ?? '', url: request.url ?? '' });
      if (!armed || !match(request)) return;
      armed = false;
      // Node sends the status line and headers with the first body write or end(), so holding
      // end() holds the whole answer.
      const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
      response.end = ((...args: unknown[]) => {
        void released.then(() => end(...args));
        return response;
      }) as typeof response.end;
      onHeld();
    },
  );
  return { hold: { held, release }, requests };
}

/** The pages (title → how many times) in the space's draft change request Quire made. */
async function draftPageTitles(): Promise<Map<string, number>> {
  const api = server.client(TOKEN).spaces;
  const { data } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const cr = (data.items as { id: string; subject?: string }[]).find((item) =>
    item.subject?.startsWith('Edits from '),
  );
  const titles = new Map<string, number>();
  if (cr === undefined) return titles;
  const response = await server.request(
    'GET',
    `/v1/spaces/${SPACE}/change-requests/${cr.id}/content`,
    TOKEN,
  );
  expect(response.status).toBe(200);
  interface Page {
    title: string;
    pages?: Page[];
  }
  const visit = (pages: Page[]) => {
    for (const page of pages) {
      titles.set(page.title, (titles.get(page.title) ?? 0) + 1);
      visit(page.pages ?? []);
    }
  };
  visit(((await response.json()) as { pages: Page[] }).pages);
  return titles;
}

describe('quire sync --watch stopping', { timeout: 180_000 }, () => {
  it('SIGTERM during a multi-batch drain: the batch in flight is answered and recorded, nothing more is sent, exit 0; sync --once sends the rest once', async () => {
    await login();
    const first = await quireHere(['sync', '--once']);
    expect(first.code, first.output).toBe(0);
    // 120 new pages: three content updates of at most 50 changes.
    const NOTES = 120;
    for (let i = 1; i <= NOTES; i++) {
      writeFileSync(
        join(folder, 'Acme', 'Handbook', `note-${i}.md`),
        `# Note ${i}\n\nWritten before watching.\n`,
      );
    }
    const isContentUpdate = (request: { method?: string; url?: string }) =>
      request.method !== 'GET' && /\/change-requests\/[^/]+\/content/.test(request.url ?? '');
    const { hold, requests } = holdNextResponse(isContentUpdate);

    const watch = start(['sync', '--watch']);
    await hold.held;
    const sentBeforeSignal = requests.length;
    watch.child.kill('SIGTERM');
    // The stop is seen (the signal handled) while the first batch is still unanswered.
    await eventually('the stop to be seen', () =>
      watch.output().includes('Stopping after the current request') ? true : undefined,
    );
    hold.release();
    const exit = await watch.exited;
    expect(exit, watch.output()).toEqual({ code: 0, signal: null });
    expect(watch.output()).toMatch(/Stopped with \d+ changes still queued/);
    // Nothing was sent after the signal: the batch in flight had already reached the server.
    expect(requests.slice(sentBeforeSignal)).toEqual([]);
    expect(requests.filter(isContentUpdate)).toHaveLength(1);
    expect(existsSync(join(home, 'sync.lock'))).toBe(false);

    // The first batch was recorded: 50 pages on the server, 70 still queued, none in error.
    const stopped = await statusJson();
    expect(stopped).toMatchObject({ state: 'idle', pending: NOTES - 50, problems: [] });
    const partial = await draftPageTitles();
    expect([...partial.keys()].filter((title) => title.startsWith('Note '))).toHaveLength(50);

    const once = await quireHere(['sync', '--once']);
    expect(once.code, once.output).toBe(0);
    const titles = await draftPageTitles();
    for (let i = 1; i <= NOTES; i++) expect(titles.get(`Note ${i}`), `Note ${i}`).toBe(1);
    expect(await statusJson()).toMatchObject({ state: 'idle', pending: 0, problems: [] });
    // And nothing more to do.
    const again = await quireHere(['sync', '--once']);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toMatch(/pushed/);
  });

  it('a revoked token: sync --watch stops with exit 1, naming the server and `quire login`', async () => {
    await login();
    const first = await quireHere(['sync', '--once']);
    expect(first.code, first.output).toBe(0);
    server.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ?')
      .run(new Date().toISOString(), hashToken(TOKEN));

    const watch = start(['sync', '--watch', '--interval', '1s']);
    const exit = await watch.exited;
    expect(exit, watch.output()).toEqual({ code: 1, signal: null });
    expect(watch.output()).toContain(`the server ${server.url} rejected the token`);
    expect(watch.output()).toMatch(/run `quire login` again/);
    expect(existsSync(join(home, 'sync.lock'))).toBe(false);
    expect(await statusJson()).toMatchObject({ runner: null });
  });
});
