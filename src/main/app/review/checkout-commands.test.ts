import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/support/start-test-server';
import { contentFixture, TOKENS } from '../../../../test/support/test-fixture';
import { openChangeRequest } from '../../../../test/sync/checkout-kit';
import { CommandFailedError, type CommandError } from '../../../shared/contract/command-error';
import type { QuireEvents } from '../../../shared/contract/quire-events';
import { createQuireServices } from '../../cli/create-quire-services';
import { quireHome } from '../../config/quire-home';
import { QuireApp } from '../quire-app';

/** checkoutChangeRequest and checkouts through QuireApp, over the real services and server. */
const SPACE = 's-handbook';

let t: TestServer;
let dir: string;
let app: QuireApp;

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  dir = mkdtempSync(join(tmpdir(), 'quire-app-checkout-'));
  app = new QuireApp({
    services: createQuireServices(quireHome(join(dir, 'home'))),
    appInfo: { name: 'Quire', version: 'test' },
    env: {},
  });
  await app.login({ server: t.url, token: TOKENS.ada, folder: join(dir, 'mirror') });
  await app.syncNow({});
});
afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

async function failure(command: Promise<unknown>): Promise<CommandError> {
  const error = await command.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CommandFailedError);
  return (error as CommandFailedError).error;
}

describe('CheckoutCommands', () => {
  it('checks out by space title, announces it, and lists it', async () => {
    const cr = await openChangeRequest(t, SPACE, 'Fix the guide', [
      { operation: 'update_page', page: 'p-setup', document: { markdown: '# Setup\n\nFixed.\n' } },
    ]);
    const changed: QuireEvents['reviewChanged'][] = [];
    app.on('reviewChanged', (payload) => changed.push(payload));

    const checkout = await app.checkoutChangeRequest({ space: 'Handbook', number: cr.number });

    expect(checkout).toEqual({
      spaceId: SPACE,
      space: 'Handbook',
      number: cr.number,
      subject: 'Fix the guide',
      status: 'open',
      folder: join(
        dir,
        'mirror',
        'Acme',
        'Handbook (change requests)',
        `${cr.number} Fix the guide`,
      ),
      pending: 0,
      closedWithPendingEdits: false,
    });
    expect(readFileSync(join(checkout.folder, 'guides/setup.md'), 'utf8')).toContain('Fixed.');
    expect(changed).toEqual([{ spaceId: SPACE, number: cr.number }]);
    expect(await app.checkouts({})).toEqual([checkout]);
  });

  it('refuses a merged change request and names an unknown one, typed', async () => {
    const cr = await openChangeRequest(t, SPACE, 'Merged already');
    await t.client(TOKENS.ada).spaces.mergeChangeRequest(SPACE, cr.id);
    expect(await failure(app.checkoutChangeRequest({ space: SPACE, number: cr.number }))).toEqual({
      kind: 'refused',
      status: 409,
      message: expect.stringMatching(/is merged: only open and draft ones/),
    });
    expect(await failure(app.checkoutChangeRequest({ space: SPACE, number: 404 }))).toMatchObject({
      kind: 'unknown-change-request',
      number: 404,
    });
    expect(await app.checkouts({})).toEqual([]);
  });
});
