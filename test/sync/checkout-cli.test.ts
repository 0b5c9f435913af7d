import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestCheckout } from '../../src/shared/contract/review';
import { inProcessQuire } from './in-process-quire';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { changeRequestMarkdown, openChangeRequest } from './checkout-kit';

/**
 * `quire cr checkout|checkouts` over the real services and the real server, in-process: Cleo
 * checks Dora's change request out, edits a page there, and `quire sync` sends it to it.
 */
let t: TestServer;
let dir: string;
let cr: { id: string; number: number };

/** `quire …` in this process, over this test's home. */
const quire = (args: string[]) => inProcessQuire(dir)(...args);

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-checkout-cli-'));
  cr = await openChangeRequest(t, 's-handbook', 'Clearer setup', [
    {
      operation: 'update_page',
      page: 'p-setup',
      document: { markdown: '# Setup\n\nInstall it with npm.\n' },
    },
  ]);
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
  rmSync(dir, { recursive: true, force: true });
  await t?.close().catch(() => {});
});

describe('quire cr checkout', () => {
  it('checks out, lists, and sends an edit made there to the change request', async () => {
    const folder = join(
      dir,
      'mirror',
      'Acme',
      'Handbook (change requests)',
      `${cr.number} Clearer setup`,
    );
    const checkout = await quire(['cr', 'checkout', 'Handbook', `#${cr.number}`]);
    expect(checkout.code, checkout.stderr).toBe(0);
    expect(checkout.stdout).toContain(folder);
    expect(checkout.stdout).toContain('quire sync');
    expect(readFileSync(join(folder, 'guides/setup.md'), 'utf8')).toContain('with npm');

    const listed = await quire(['cr', 'checkouts']);
    expect(listed.stdout).toContain(`Handbook #${cr.number} Clearer setup (open, nothing pending)`);

    writeFileSync(join(folder, 'guides/setup.md'), '# Setup\n\nInstall it with pnpm.\n');
    const sync = await quire(['sync', '--once']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(await changeRequestMarkdown(t, 's-handbook', cr.id, 'p-setup')).toContain('pnpm');

    const json = await quire(['cr', 'checkouts', '--json']);
    const items = JSON.parse(json.stdout) as ChangeRequestCheckout[];
    expect(items).toEqual([
      expect.objectContaining({ spaceId: 's-handbook', number: cr.number, folder, pending: 0 }),
    ]);
    expect(existsSync(folder)).toBe(true);
  });

  it('says why it cannot check out an unknown change request', async () => {
    const failed = await quire(['cr', 'checkout', 'Handbook', '999']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/no change request 999/);
  });
});
