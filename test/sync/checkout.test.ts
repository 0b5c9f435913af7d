import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import type { RemotePage, RemoteWorkspace } from '../../src/main/sync-ports';
import { buildSyncStatus } from '../../src/main/sync/sync-status-model';
import { SyncWatcher } from '../../src/main/sync/sync-watcher';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import {
  changeRequestMarkdown,
  checkoutEngineFor,
  editInChangeRequest,
  mainMarkdown,
  openChangeRequest,
} from './checkout-kit';
import type { EngineKit } from './sync-test-kit';

/** Change requests of Acme's Handbook checked out into folders, against the real server. */
const SPACE = 's-handbook';

let t: TestServer;
let kit: EngineKit;

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = checkoutEngineFor(t);
  expect((await kit.engine.syncOnce()).errors).toEqual([]);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const api = () => t.client(TOKENS.ada).spaces;

async function checkOut(subject: string, setup = '# Setup\n\nInstall it from the CR.\n') {
  const cr = await openChangeRequest(t, SPACE, subject, [
    { operation: 'update_page', page: 'p-setup', document: { markdown: setup } },
  ]);
  const checkout = await kit.engine.checkout(SPACE, cr.number);
  return { cr, checkout, root: checkout.folder };
}

describe('change-request checkout', () => {
  it("writes the change request's content in the Git Sync layout", async () => {
    const { cr, root } = await checkOut('Better setup');

    expect(root).toBe(
      join(kit.folder, 'Acme', 'Handbook (change requests)', `${cr.number} Better setup`),
    );
    expect(readFileSync(join(root, 'SUMMARY.md'), 'utf8')).toContain('[Setup](guides/setup.md)');
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain(
      'Install it from the CR.',
    );
    // The space folder keeps main's content.
    expect(readFileSync(join(kit.folder, 'Acme/Handbook/guides/setup.md'), 'utf8')).toContain(
      'Install it.',
    );
    expect(kit.engine.checkouts()).toEqual([
      expect.objectContaining({ number: cr.number, status: 'open', folder: root, pending: 0 }),
    ]);
    expect(kit.engine.syncedFolders().map((folder) => folder.root)).toContain(root);
  });

  it('sends a local edit to that change request, not to main nor to a working one', async () => {
    const { cr, root } = await checkOut('Edit here');
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nEdited in the checkout.\n');

    const report = await kit.engine.syncOnce();

    expect(report.errors).toEqual([]);
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain(
      'Edited in the checkout.',
    );
    expect(await mainMarkdown(t, SPACE, 'p-setup')).toContain('Install it.');
    const { data } = await api().listChangeRequestsForSpace(SPACE, {});
    expect((data.items as { subject?: string }[]).map((item) => item.subject)).toEqual([
      'Edit here',
    ]);
    expect(kit.engine.checkouts()[0]!.pending).toBe(0);
  });

  it('sends an edit on pushOnce (what a watcher runs on a save)', async () => {
    const { cr, root } = await checkOut('Pushed at once');
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nSaved in the checkout.\n');

    const report = await kit.engine.pushOnce();

    expect(report.errors).toEqual([]);
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain('Saved in the');
    expect(kit.engine.pendingChanges()).toBe(0);
  });

  it('is watched: a save there reaches the change request without a sync', async () => {
    const { cr, root } = await checkOut('Watched');
    const watcher = new SyncWatcher({ engine: kit.engine, pullIntervalMs: 3_600_000 });
    await watcher.start();
    try {
      writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nSaved while watched.\n');
      const deadline = Date.now() + 30_000;
      let markdown: string | undefined;
      while (Date.now() < deadline) {
        markdown = await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup');
        if (markdown?.includes('Saved while watched.')) break;
        await new Promise((wait) => setTimeout(wait, 200));
      }
      expect(markdown).toContain('Saved while watched.');
    } finally {
      await watcher.stop();
    }
  });

  it('keeps an edit made offline pending, then sends it once the server is back', async () => {
    let offline = false;
    const unreachable: typeof fetch = (input, init) =>
      offline ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
    kit.close();
    kit = checkoutEngineFor(t, TOKENS.ada, { fetch: unreachable });
    expect((await kit.engine.syncOnce()).errors).toEqual([]);
    const { cr, root } = await checkOut('Offline');
    offline = true;
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nWritten offline.\n');

    const report = await kit.engine.pushOnce();

    expect(report.offline).toBe(true);
    expect(kit.engine.checkouts()[0]!.pending).toBe(1);
    const row = buildSyncStatus(kit.engine).spaces.find((space) =>
      space.folder.endsWith('Offline'),
    );
    expect(row?.pending).toBe(1);
    offline = false;
    expect((await kit.engine.syncOnce()).errors).toEqual([]);
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain('Written offline.');
    expect(kit.engine.checkouts()[0]!.pending).toBe(0);
    expect(kit.engine.status().find((space) => space.folder.endsWith('Offline'))?.errors).toEqual(
      [],
    );
  });

  it("brings others' edits of the change request into the folder", async () => {
    const { cr, root } = await checkOut('Shared');
    await editInChangeRequest(t, SPACE, cr.id, 'p-welcome', '# Welcome\n\nHello from Bo.\n');

    await kit.engine.syncOnce();

    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('Hello from Bo.');
  });

  it('records the usual conflict when the same page changed on both sides', async () => {
    const { cr, root } = await checkOut('Contended');
    await editInChangeRequest(t, SPACE, cr.id, 'p-setup', '# Setup\n\nTheirs.\n');
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nMine.\n');

    await kit.engine.syncOnce();

    const conflicts = kit.engine.conflicts();
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]!.path).toBe('guides/setup.md');
    // Neither side is lost: the file keeps the user's text, the server the other one.
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain('Mine.');
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain('Theirs.');
  });

  it('removes the folder once the change request is merged, nothing being pending', async () => {
    const { cr, root } = await checkOut('To merge');
    await api().mergeChangeRequest(SPACE, cr.id);

    await kit.engine.syncOnce();

    expect(existsSync(root)).toBe(false);
    expect(existsSync(dirname(root))).toBe(false);
    expect(kit.engine.checkouts()).toEqual([]);
    expect(readFileSync(join(kit.folder, 'Acme/Handbook/guides/setup.md'), 'utf8')).toContain(
      'Install it from the CR.',
    );
  });

  for (const closing of ['merged', 'archived'] as const) {
    it(`keeps the folder and its unsent edit when ${closing} meanwhile`, async () => {
      const { cr, root } = await checkOut(`Closing ${closing}`);
      if (closing === 'merged') await api().mergeChangeRequest(SPACE, cr.id);
      else {
        await api().updateChangeRequestById(SPACE, cr.id, {
          status: ChangeRequestStatus.Archived,
        });
      }
      writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nNot sent yet.\n');

      const report = await kit.engine.syncOnce();

      expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain('Not sent yet.');
      expect(kit.engine.checkouts()).toEqual([
        expect.objectContaining({ status: closing, closedWithPendingEdits: true, pending: 1 }),
      ]);
      const problems = report.spaces.flatMap((space) => space.problems);
      expect(problems.map((problem) => problem.message).join('\n')).toMatch(
        /was (merged|archived) on the server.*delete this folder/,
      );
      const status = kit.engine
        .status()
        .find((space) => space.folder.includes('(change requests)'));
      expect(status?.problems.map((problem) => problem.kind)).toContain('kept-deleted');
      // The status snapshot (what the app and `quire status` show) counts the unsent edit.
      const snapshot = buildSyncStatus(kit.engine);
      expect(snapshot.spaces.find((space) => space.id === status?.id)?.pending).toBe(1);
      expect(snapshot.problems.map((problem) => problem.message).join('\n')).toMatch(
        /delete this folder/,
      );
      // Nothing went to main or to a new change request.
      expect(await mainMarkdown(t, SPACE, 'p-setup')).not.toContain('Not sent yet.');
      for (const status of [ChangeRequestStatus.Draft, ChangeRequestStatus.Open]) {
        const { data } = await api().listChangeRequestsForSpace(SPACE, { status });
        expect(data.items).toEqual([]);
      }
      // Again: still kept. Then the user deletes the folder: the checkout is forgotten.
      await kit.engine.syncOnce();
      expect(existsSync(join(root, 'guides/setup.md'))).toBe(true);
      rmSync(root, { recursive: true });
      await kit.engine.syncOnce();
      expect(kit.engine.checkouts()).toEqual([]);
      expect(kit.engine.pendingChanges()).toBe(0);
    });
  }

  it('forgets a checkout whose folder the user deleted, nothing being queued', async () => {
    const { cr, root } = await checkOut('Given up');
    rmSync(root, { recursive: true });

    const report = await kit.engine.syncOnce();

    expect(report.errors).toEqual([]);
    expect(existsSync(root)).toBe(false);
    expect(kit.engine.checkouts()).toEqual([]);
    expect(kit.engine.syncedFolders().map((folder) => folder.root)).not.toContain(root);
    expect(await changeRequestMarkdown(t, SPACE, cr.id, 'p-setup')).toContain('from the CR');
  });

  it('keeps its checkouts while the whole mirror folder is missing (an unmounted disk)', async () => {
    const { root } = await checkOut('Disk away');
    renameSync(kit.folder, `${kit.folder}-away`);
    try {
      expect((await kit.engine.syncOnce()).errors).not.toEqual([]);
      await kit.engine.pushOnce();
    } finally {
      renameSync(`${kit.folder}-away`, kit.folder);
    }
    expect(kit.engine.checkouts()).toEqual([expect.objectContaining({ folder: root })]);
    expect(existsSync(join(root, 'SUMMARY.md'))).toBe(true);
  });

  it('keeps two checkouts apart', async () => {
    const one = await checkOut('First', '# Setup\n\nOne.\n');
    const two = await checkOut('Second', '# Setup\n\nTwo.\n');
    writeFileSync(join(one.root, 'README.md'), '# Welcome\n\nFrom one.\n');
    writeFileSync(join(two.root, 'README.md'), '# Welcome\n\nFrom two.\n');

    await kit.engine.syncOnce();

    expect(await changeRequestMarkdown(t, SPACE, one.cr.id, 'p-welcome')).toContain('From one.');
    expect(await changeRequestMarkdown(t, SPACE, two.cr.id, 'p-welcome')).toContain('From two.');
    expect(readFileSync(join(one.root, 'guides/setup.md'), 'utf8')).toContain('One.');
    expect(readFileSync(join(two.root, 'guides/setup.md'), 'utf8')).toContain('Two.');
    expect(kit.engine.checkouts().map((checkout) => checkout.pending)).toEqual([0, 0]);
  });

  it('makes a safe folder name of a hostile subject', async () => {
    const parent = join(kit.folder, 'Acme', 'Handbook (change requests)');
    // (The server refuses control characters and over 100 characters: checkout-folder.test.ts)
    for (const subject of ['../../escape', 'a/b\\c', '..', 'CON', 'é'.repeat(100)]) {
      const { root } = await checkOut(subject);
      expect(dirname(root)).toBe(parent);
      expect(Buffer.byteLength(basename(root))).toBeLessThanOrEqual(255);
      expect(existsSync(join(root, 'SUMMARY.md'))).toBe(true);
    }
    expect(readdirSync(parent)).toHaveLength(5);
    expect(readdirSync(kit.folder)).toEqual(['Acme']);
  });

  it('refuses a merged change request and an unknown one', async () => {
    const cr = await openChangeRequest(t, SPACE, 'Done');
    await api().mergeChangeRequest(SPACE, cr.id);
    await expect(kit.engine.checkout(SPACE, cr.number)).rejects.toThrow(/is merged/);
    await expect(kit.engine.checkout(SPACE, 999)).rejects.toThrow(
      /no change request 999 in space Handbook/,
    );
  });
});

describe('a first checkout over a server that reads page by page', () => {
  it("takes the pages the change request left alone from the space's cache", async () => {
    const client = new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada });
    // Like GitBook.com's per-page reads: a page the engine says it knows comes without Markdown.
    const perPage: RemoteWorkspace = {
      whoAmI: () => client.whoAmI(),
      listOrganizations: () => client.listOrganizations(),
      listSpaces: (organizationId) => client.listSpaces(organizationId),
      downloadFile: (file) => client.downloadFile(file),
      getRevision: async (spaceId, revisionId, knownPages) => {
        const revision = await client.getRevision(spaceId, revisionId, knownPages);
        const strip = (pages: RemotePage[]) => {
          for (const page of pages) {
            if (knownPages?.get(page.id) === page.updatedAt) delete page.markdown;
            strip(page.pages);
          }
        };
        strip(revision.pages);
        return revision;
      },
    };
    kit.close();
    kit = checkoutEngineFor(t, TOKENS.ada, { remote: perPage });
    expect((await kit.engine.syncOnce()).errors).toEqual([]);

    const { root } = await checkOut('Page by page');

    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('Hello.');
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain('from the CR');
  });
});
