import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestStatus } from '@gitbook/api';
import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestSummary,
} from '../../src/shared/contract/change-requests';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

/**
 * `quire cr list|show|diff` over the real services and the real server, in-process: Cleo (a
 * reviewer) is asked to review Dora's change request on the Handbook; then the server stops and
 * the same commands answer from the cache.
 */
let t: TestServer;
let dir: string;
let number: number;
let shelvedNumber: number;

async function quire(args: string[], tty = false) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: tty },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: dir,
    readStdin: async () => '',
  };
  const code = await runQuireCli(['--home', join(dir, 'home'), ...args], io, createQuireServices);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-cr-cli-'));
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest('s-handbook', { subject: 'Clearer setup' });
  await api.updateChangeRequestContent(
    's-handbook',
    cr.id,
    {
      changes: [
        {
          operation: 'update_page',
          page: 'p-setup',
          document: { markdown: '# Setup\n\nInstall it with npm.\n' },
        },
      ],
    },
    { compat: false },
  );
  await api.updateChangeRequestById('s-handbook', cr.id, { status: ChangeRequestStatus.Open });
  await api.requestReviewersForChangeRequest('s-handbook', cr.id, { users: ['u-cleo'] });
  number = cr.number;
  const { data: shelved } = await api.createChangeRequest('s-handbook', { subject: 'Shelved' });
  await api.updateChangeRequestById('s-handbook', shelved.id, {
    status: ChangeRequestStatus.Archived,
  });
  shelvedNumber = shelved.number;
  const login = await quire([
    'login',
    '--server',
    t.url,
    '--token',
    TOKENS.cleo,
    '--folder',
    join(dir, 'mirror'),
  ]);
  expect(login.code, login.stderr).toBe(0);
  const sync = await quire(['sync', '--once']);
  expect(sync.code, sync.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await t.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function expectReadable() {
  const list = await quire(['cr', 'list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  const items = JSON.parse(list.stdout) as ChangeRequestSummary[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({
    subject: 'Clearer setup',
    space: 'Handbook',
    waitingForYou: 'review-requested',
  });

  const text = await quire(['cr', 'list']);
  expect(text.stdout).toContain(
    `Handbook #${number} [open] Clearer setup — Dora Edit — waits for you: review requested`,
  );

  const show = await quire(['cr', 'show', 'Handbook', String(number), '--json']);
  expect(show.code, show.stderr).toBe(0);
  const detail = JSON.parse(show.stdout) as ChangeRequestDetail;
  expect(detail.requestedReviewers.map((r) => r.user.displayName)).toEqual(['Cleo Review']);

  const diff = await quire(['cr', 'diff', 's-handbook', `#${number}`]);
  expect(diff.code, diff.stderr).toBe(0);
  expect(diff.stdout).toContain('Setup (guides/setup): modified; +1 -1');
  expect(diff.stdout).toContain('- Install it.');
  expect(diff.stdout).toContain('+ Install it with npm.');
  expect(diff.stdout).toContain('1 page changed.');

  const json = JSON.parse(
    (await quire(['cr', 'diff', 'Handbook', String(number), '--json'])).stdout,
  );
  expect((json as ChangeRequestDiff).pages.map((page) => page.pageId)).toEqual(['p-setup']);
}

describe('quire cr', () => {
  it('lists, shows and diffs the mirrored change requests', async () => {
    await expectReadable();
  });

  it('colours the diff on a terminal, the changed words marked', async () => {
    const diff = await quire(['cr', 'diff', 'Handbook', String(number)], true);
    expect(diff.stdout).toContain('\u001b[32m+ Install it\u001b[7m with npm\u001b[27m.\u001b[39m');
  });

  it('names an unknown change request or space, and refuses bad arguments', async () => {
    const unknown = await quire(['cr', 'show', 'Handbook', '99']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no change request 99 in space Handbook');
    const space = await quire(['cr', 'diff', 'Nowhere', '1']);
    expect(space.code).toBe(1);
    expect(space.stderr).toContain('no synced space Nowhere');
    expect((await quire(['cr', 'show', 'Handbook', 'x'])).code).toBe(2);
    expect((await quire(['cr'])).code).toBe(2);
  });

  it('pins an archived change request into the mirror, and unpins it', async () => {
    const subjects = async () => {
      const list = await quire(['cr', 'list', '--json']);
      return (JSON.parse(list.stdout) as ChangeRequestSummary[]).map((item) => item.subject);
    };
    const pin = await quire(['cr', 'pin', 'Handbook', String(shelvedNumber)]);
    expect(pin.code, pin.stderr).toBe(0);
    expect(pin.stdout).toContain(`Pinned Handbook #${shelvedNumber}`);
    // The pin has the very next sync refresh the mirror.
    expect((await quire(['sync', '--once'])).code).toBe(0);
    expect((await subjects()).sort()).toEqual(['Clearer setup', 'Shelved']);
    expect((await quire(['cr', 'unpin', 'Handbook', String(shelvedNumber)])).code).toBe(0);
    expect((await quire(['sync', '--once'])).code).toBe(0);
    expect(await subjects()).toEqual(['Clearer setup']);
  });

  it('works the same with the server stopped', async () => {
    await t.close();
    await expectReadable();
  });
});
