import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestStatus } from '@gitbook/api';
import type { CommentThread } from '../../src/shared/contract/review';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

/**
 * `quire cr comments|comment|reply|react|resolve|edit-comment|delete-comment` over the real
 * services and server, in-process: Dora comments on her change request and on the space, the
 * changes queued until `quire sync --once` sends them.
 */
let t: TestServer;
let dir: string;
let number: number;

async function quire(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: dir,
    readStdin: async () => stdin,
  };
  const code = await runQuireCli(['--home', join(dir, 'home'), ...args], io, createQuireServices);
  return { code, stdout, stderr };
}

async function threads(scope: string): Promise<CommentThread[]> {
  const listed = await quire(['cr', 'comments', 'Handbook', scope, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as CommentThread[];
}

async function sync() {
  const run = await quire(['sync', '--once']);
  expect(run.code, run.stderr).toBe(0);
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-comments-cli-'));
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest('s-handbook', { subject: 'Clearer setup' });
  await api.updateChangeRequestById('s-handbook', cr.id, { status: ChangeRequestStatus.Open });
  number = cr.number;
  const login = await quire([
    'login',
    '--server',
    t.url,
    '--token',
    TOKENS.dora,
    '--folder',
    join(dir, 'mirror'),
  ]);
  expect(login.code, login.stderr).toBe(0);
  await sync();
}, 60_000);

afterAll(async () => {
  await t.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('quire cr comments', () => {
  it('writes a thread, shows it pending, and sends it with the next sync', async () => {
    const cr = String(number);
    const posted = await quire(['cr', 'comment', 'Handbook', cr, '--body', 'Looks good']);
    expect(posted.code, posted.stderr).toBe(0);
    expect(posted.stdout).toContain('Comment local-1 written. Queued');
    const reply = await quire(['cr', 'reply', 'Handbook', cr, 'local-1', '--body', '-'], 'Yes!');
    expect(reply.code, reply.stderr).toBe(0);
    expect((await quire(['cr', 'react', 'Handbook', cr, 'local-1', '🎉'])).code).toBe(0);

    const text = await quire(['cr', 'comments', 'Handbook', `#${cr}`]);
    expect(text.stdout).toContain('local-1  Dora Edit · ');
    expect(text.stdout).toContain('(pending create)');
    expect(text.stdout).toContain('    Looks good');
    expect(text.stdout).toContain('    🎉 1 (you)');
    expect(text.stdout).toMatch(/ {2}↳ local-2 {2}Dora Edit · .*\(pending create\)\n {6}Yes!/);
    expect(text.stdout).toContain('1 thread, 1 with changes not sent yet.');

    await sync();
    const [thread] = await threads(cr);
    expect(thread).toMatchObject({ body: 'Looks good', pending: null });
    expect(thread!.replies).toMatchObject([{ body: 'Yes!', pending: null }]);
    expect(thread!.reactions).toEqual([{ emoji: '🎉', count: 1, mine: true }]);

    // The local id still names it once sent.
    expect((await quire(['cr', 'resolve', 'Handbook', cr, 'local-1'])).code).toBe(0);
    const edit = ['cr', 'edit-comment', 'Handbook', cr, thread!.id, thread!.replies[0]!.id];
    expect((await quire([...edit, '--body', 'Yes, merged'])).code).toBe(0);
    await sync();
    const [done] = await threads(cr);
    expect(done).toMatchObject({ resolved: true, pending: null });
    expect(done!.replies).toMatchObject([{ body: 'Yes, merged' }]);
    const resolved = await quire(['cr', 'comments', 'Handbook', cr]);
    expect(resolved.stdout).toContain('[resolved]');

    expect((await quire(['cr', 'delete-comment', 'Handbook', cr, thread!.id])).code).toBe(0);
    expect((await threads(cr))[0]).toMatchObject({ pending: 'delete' });
    await sync();
    expect(await threads(cr)).toEqual([]);
  });

  it('puts a comment on a page named by its path', async () => {
    const cr = String(number);
    const on = ['cr', 'comment', 'Handbook', cr, '--page', 'guides/setup.md', '--body', 'Step 2?'];
    expect((await quire(on)).code).toBe(0);
    const pending = await quire(['cr', 'comments', 'Handbook', cr, '--page', 'guides/setup']);
    expect(pending.stdout).toContain('on guides/setup');
    await sync();
    const [thread] = await threads(cr);
    expect(thread).toMatchObject({ body: 'Step 2?', page: { id: 'p-setup' }, pending: null });
  });

  it("takes '-' for the space's own comments", async () => {
    const posted = await quire(['cr', 'comment', 'Handbook', '-', '--body', 'On the space']);
    expect(posted.code, posted.stderr).toBe(0);
    await sync();
    const { data } = await t.client(TOKENS.ada).spaces.listCommentsInSpace('s-handbook');
    expect(data.items.map((c) => (c.body as unknown as { markdown: string }).markdown)).toContain(
      'On the space',
    );
    expect((await threads('-')).map((c) => c.body)).toContain('On the space');
  });

  it('names an unknown comment or change request, and refuses bad arguments', async () => {
    const unknown = await quire([
      'cr',
      'reply',
      'Handbook',
      String(number),
      'c-nope',
      '--body',
      'x',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no comment c-nope');
    const cr = await quire(['cr', 'comments', 'Handbook', '99']);
    expect(cr.code).toBe(1);
    expect(cr.stderr).toContain('no change request 99 in space Handbook');
    expect((await quire(['cr', 'comment', 'Handbook', String(number)])).code).toBe(2);
    expect((await quire(['cr', 'comment', 'Handbook', String(number), '--body', ' '])).code).toBe(
      2,
    );
    expect((await quire(['cr', 'react', 'Handbook', String(number)])).code).toBe(2);
  });
});
