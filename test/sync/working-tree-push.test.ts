import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import type { RemotePage } from '../../src/main/sync-ports';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, remoteEdit, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * Later pushes place pages against the working change request's real tree, not a rebuild of it
 * from the synced revision (found by the sync model property test: pages merged on main after the
 * change request was made, and children lifted out of a deleted page, shifted every position and
 * the server refused the move with "400 at must be at most N").
 */
const SPACE = 's-handbook';

let t: TestServer;
let kit: EngineKit;
let root: string;

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = pushEngineFor(t);
  expect((await kit.engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
  // The working change request is made by this first push.
  writeFileSync(join(root, 'README.md'), '# Home\n\nLocal edit.\n');
  const first = await sync();
  expect(first?.problems).toEqual([]);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

async function sync() {
  const report = await kit.engine.syncOnce();
  return report.spaces.find((space) => space.spaceId === SPACE);
}

async function workingPages(): Promise<RemotePage[]> {
  const api = t.client(TOKENS.ada).spaces;
  const { data } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const cr = (data.items as { id: string; subject?: string }[]).find(
    (item) => item.subject === `Edits from ${TEST_DEVICE}`,
  );
  expect(cr).toBeDefined();
  const remote = new WorkspaceOutboxRemote(
    new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada }),
  );
  return remote.getChangeRequestPages(SPACE, cr!.id);
}

describe('pushes into an existing working change request', () => {
  it('follows main after a pull, so new pages go after main’s newer ones', async () => {
    await remoteEdit(t, SPACE, [
      { operation: 'insert_page', document: { markdown: '# Remote\n\nFrom elsewhere.\n' } },
    ]);
    await sync();
    expect((await workingPages()).map((page) => page.title)).toEqual(['Home', 'Guides', 'Remote']);
    writeFileSync(join(root, 'zz-new.md'), '# Zz new\n\nMine.\n');

    const pushed = await sync();

    expect(pushed?.problems).toEqual([]);
    expect((await workingPages()).map((page) => page.title)).toEqual([
      'Home',
      'Guides',
      'Remote',
      'Zz new',
    ]);
  });

  it('places a new page among the change request’s pages when it cannot follow main', async () => {
    // Main gains a page, and changes Home as this device's change request did: updating the
    // change request from main conflicts, so it keeps its base, without the new page.
    await remoteEdit(t, SPACE, [
      {
        operation: 'update_page',
        page: 'p-welcome',
        document: { markdown: '# Home\n\nTheirs.\n' },
      },
      { operation: 'insert_page', document: { markdown: '# Remote\n\nFrom elsewhere.\n' } },
    ]);
    await sync();
    expect(kit.engine.conflicts().map((conflict) => conflict.path)).toEqual(['README.md']);
    writeFileSync(join(root, 'zz-new.md'), '# Zz new\n\nMine.\n');

    const pushed = await sync();

    expect(pushed?.problems.filter((problem) => problem.kind !== 'conflict')).toEqual([]);
    expect((await workingPages()).map((page) => page.title)).toEqual(['Home', 'Guides', 'Zz new']);
  });

  it('places pages after children a deletion lifted out, editing a lifted child', async () => {
    writeFileSync(join(root, 'aaa.md'), '# Aaa\n\nA new page.\n');
    await sync();
    // Guides is deleted; Setup (its child, still a file) is lifted out first, to the end.
    rmSync(join(root, 'guides/README.md'));
    await sync();
    expect((await workingPages()).map((page) => page.title)).toEqual(['Home', 'Aaa', 'Setup']);
    writeFileSync(join(root, 'zz-new.md'), '# Zz new\n\nMine.\n');
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nEdited.\n');

    const pushed = await sync();

    expect(pushed?.problems).toEqual([]);
    expect((await workingPages()).map((page) => page.title)).toEqual([
      'Home',
      'Aaa',
      'Setup',
      'Zz new',
    ]);
  });
});
