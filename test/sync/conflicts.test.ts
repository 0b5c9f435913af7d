import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceSyncReport } from '../../src/main/sync/sync-engine';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, remoteEdit, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * Conflicts against the real server: Acme's Handbook page p-setup (guides/setup.md) edited in the
 * folder and, through the API, on the space's main content; every sync pushes then pulls.
 */
const SPACE = 's-handbook';
const SETUP = 'guides/setup.md';
const BASE = '# Setup\n\nOne.\n\nTwo.\n\nThree.\n';

let t: TestServer;
let kit: EngineKit;
let root: string;
const setupFile = () => join(root, SETUP);

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = pushEngineFor(t);
  await remoteEdit(t, SPACE, [
    { operation: 'update_page', page: 'p-setup', document: { markdown: BASE } },
  ]);
  const first = await kit.engine.syncOnce();
  expect(first.errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
  expect(readFileSync(setupFile(), 'utf8')).toBe(BASE);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const api = () => t.client(TOKENS.ada).spaces;

async function workingChangeRequest(): Promise<string | undefined> {
  const { data } = await api().listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  return items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`)?.id;
}

async function crPages(crId: string): Promise<{ id: string; title: string }[]> {
  const { data } = await api().listPagesInChangeRequest(SPACE, crId);
  type Node = { id: string; title: string; pages?: Node[] };
  const flat = (pages: Node[]): Node[] =>
    pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);
  return flat(data.pages as Node[]);
}

async function crMarkdown(pageId: string): Promise<string | undefined> {
  const crId = await workingChangeRequest();
  if (crId === undefined) return undefined;
  const { data } = await api().getPageInChangeRequestById(SPACE, crId, pageId, {
    format: 'markdown',
  });
  return (data as { markdown?: string }).markdown;
}

const editRemote = (markdown: string) =>
  remoteEdit(t, SPACE, [{ operation: 'update_page', page: 'p-setup', document: { markdown } }]);

/** The one open conflict: p-setup's file, deleted locally and edited remotely. */
function expectDeletedLocally(): void {
  expect(kit.engine.conflicts()).toEqual([
    expect.objectContaining({ kind: 'deleted-locally', path: SETUP, pageId: 'p-setup' }),
  ]);
}

/** The space's report (absent when a run had nothing to do in it). */
function handbook(reports: readonly SpaceSyncReport[]): SpaceSyncReport | undefined {
  return reports.find((report) => report.spaceId === SPACE);
}

describe('conflicts on pull', () => {
  it('merges edits of different lines, writes the result and pushes it', async () => {
    writeFileSync(setupFile(), BASE.replace('One.', 'One, locally.'));
    await editRemote(BASE.replace('Three.', 'Three, remotely.'));

    const report = await kit.engine.syncOnce();

    const merged = '# Setup\n\nOne, locally.\n\nTwo.\n\nThree, remotely.\n';
    const space = handbook(report.spaces)!;
    expect(space.problems).toEqual([]);
    expect(space.merged).toEqual([SETUP]);
    expect(readFileSync(setupFile(), 'utf8')).toBe(merged);
    expect(kit.engine.conflicts()).toEqual([]);
    // Pushed by the same run, as a local edit of the page.
    expect(await crMarkdown('p-setup')).toBe(merged);

    // Nothing left to push or merge; merging the change request makes main the merged text.
    const again = await kit.engine.syncOnce();
    expect(handbook(again.spaces)?.queued ?? 0).toBe(0);
    await api().mergeChangeRequest(SPACE, (await workingChangeRequest())!);
    await kit.engine.syncOnce();
    expect(readFileSync(setupFile(), 'utf8')).toBe(merged);
    const { data } = await api().getPageById(SPACE, 'p-setup', { format: 'markdown' });
    expect((data as { markdown?: string }).markdown).toBe(merged);
  });

  describe('overlapping edits', () => {
    const local = BASE.replace('Two.', 'Two, mine.');
    const remote = BASE.replace('Two.', 'Two, theirs.');

    beforeEach(async () => {
      writeFileSync(setupFile(), local);
      await editRemote(remote);
      const report = await kit.engine.syncOnce();
      expect(handbook(report.spaces)?.problems).toEqual([
        expect.objectContaining({ kind: 'conflict', path: SETUP, pageId: 'p-setup' }),
      ]);
    });

    it('are recorded, keeping the local file byte for byte, until resolved', async () => {
      expect(readFileSync(setupFile(), 'utf8')).toBe(local);
      expect(kit.engine.conflicts()).toEqual([
        expect.objectContaining({
          spaceId: SPACE,
          spaceTitle: 'Handbook',
          kind: 'content',
          path: SETUP,
          pageId: 'p-setup',
          title: 'Setup',
        }),
      ]);
      // Still listed after another sync, still the same id; the local file untouched.
      const [before] = kit.engine.conflicts();
      await kit.engine.syncOnce();
      expect(kit.engine.conflicts().map((conflict) => conflict.id)).toEqual([before!.id]);
      expect(readFileSync(setupFile(), 'utf8')).toBe(local);
      expect(kit.engine.status().find((space) => space.id === SPACE)?.conflicts).toBe(1);
    });

    it('--mine keeps the local file and pushes it over the remote version', async () => {
      const [conflict] = kit.engine.conflicts();
      await kit.engine.resolveConflict(conflict!.id, { mode: 'mine' });
      expect(readFileSync(setupFile(), 'utf8')).toBe(local);
      expect(kit.engine.conflicts()).toEqual([]);

      const report = await kit.engine.syncOnce();
      expect(handbook(report.spaces)?.problems).toEqual([]);
      expect(await crMarkdown('p-setup')).toBe(local);
      expect(readFileSync(setupFile(), 'utf8')).toBe(local);
    });

    it('--mine in a change request made before the remote edit still merges', async () => {
      // The working change request existed before the remote edit (an earlier push of another
      // page made it): it follows main after each pull, so --mine does not conflict on merge.
      await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'theirs' });
      writeFileSync(join(root, 'README.md'), '# Welcome\n\nHello, edited.\n');
      await kit.engine.syncOnce();
      const crId = (await workingChangeRequest())!;
      writeFileSync(setupFile(), remote.replace('One.', 'One, mine.'));
      await editRemote(remote.replace('One.', 'One, theirs.'));
      await kit.engine.syncOnce();
      const [conflict] = kit.engine.conflicts();
      expect(conflict).toEqual(expect.objectContaining({ path: SETUP }));

      await kit.engine.resolveConflict(conflict!.id, { mode: 'mine' });
      await kit.engine.syncOnce();
      expect(await workingChangeRequest()).toBe(crId);
      const { data } = await api().mergeChangeRequest(SPACE, crId);
      expect((data as { result?: string }).result).toBe('merge');
      await kit.engine.syncOnce();
      const page = await api().getPageById(SPACE, 'p-setup', { format: 'markdown' });
      expect((page.data as { markdown?: string }).markdown).toBe(
        remote.replace('One.', 'One, mine.'),
      );
      expect(readFileSync(setupFile(), 'utf8')).toBe(remote.replace('One.', 'One, mine.'));
    });

    it('--theirs writes the remote version and drops the local edit', async () => {
      const [conflict] = kit.engine.conflicts();
      await kit.engine.resolveConflict(conflict!.id, { mode: 'theirs' });
      expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
      expect(kit.engine.conflicts()).toEqual([]);

      await kit.engine.syncOnce();
      // The change request no longer carries the dropped edit.
      expect(await crMarkdown('p-setup')).toBe(remote);
      const again = await kit.engine.syncOnce();
      expect(handbook(again.spaces)?.queued ?? 0).toBe(0);
      expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
    });

    it('--merged writes the given text and pushes it', async () => {
      const [conflict] = kit.engine.conflicts();
      const mine = BASE.replace('Two.', 'Two, agreed on.');
      await kit.engine.resolveConflict(conflict!.id, { mode: 'merged', text: mine });
      expect(readFileSync(setupFile(), 'utf8')).toBe(mine);
      expect(kit.engine.conflicts()).toEqual([]);

      await kit.engine.syncOnce();
      expect(await crMarkdown('p-setup')).toBe(mine);
    });

    it('clears once a later pull finds nothing left to merge', async () => {
      writeFileSync(setupFile(), remote);
      await remoteEdit(t, SPACE, [
        {
          operation: 'update_page',
          page: 'p-welcome',
          document: { markdown: '# Welcome\n\nHi.\n' },
        },
      ]);
      await kit.engine.syncOnce();
      expect(kit.engine.conflicts()).toEqual([]);
      expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
    });
  });

  it('edit against a remote delete: the edit wins, re-created as a new page, and is noted', async () => {
    const local = BASE.replace('One.', 'One, kept.');
    writeFileSync(setupFile(), local);
    await remoteEdit(t, SPACE, [{ operation: 'delete_page', page: 'p-setup' }]);

    const report = await kit.engine.syncOnce();

    expect(readFileSync(setupFile(), 'utf8')).toBe(local);
    expect(kit.engine.conflicts()).toEqual([
      expect.objectContaining({ kind: 'deleted-remotely', path: SETUP, pageId: 'p-setup' }),
    ]);
    expect(handbook(report.spaces)?.problems.map((problem) => problem.kind)).toContain(
      'kept-deleted',
    );
    const crId = await workingChangeRequest();
    const pages = await crPages(crId!);
    const recreated = pages.filter((page) => page.title === 'Setup');
    expect(recreated).toHaveLength(1);
    expect(recreated[0]!.id).not.toBe('p-setup');
    expect(await crMarkdown(recreated[0]!.id)).toBe(local);

    // Acknowledged with --mine; the page stays and is not pushed twice.
    await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'mine' });
    const again = await kit.engine.syncOnce();
    expect(handbook(again.spaces)?.queued ?? 0).toBe(0);
    expect((await crPages(crId!)).filter((page) => page.title === 'Setup')).toHaveLength(1);
    expect(kit.engine.conflicts()).toEqual([]);
  });

  it('a local delete against a remote edit: the remote edit is written again, and noted', async () => {
    rmSync(setupFile());
    const remote = BASE.replace('Three.', 'Three, edited remotely.');
    await editRemote(remote);

    await kit.engine.syncOnce();

    expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
    expectDeletedLocally();
    // --theirs accepts it; the file stays.
    await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'theirs' });
    expect(kit.engine.conflicts()).toEqual([]);
    expect(existsSync(setupFile())).toBe(true);
  });

  it('a local delete already pushed, against a remote edit: merging keeps the remote text', async () => {
    rmSync(setupFile());
    await kit.engine.syncOnce();
    const crId = (await workingChangeRequest())!;
    expect((await crPages(crId)).map((page) => page.title)).not.toContain('Setup');
    const remote = BASE.replace('Three.', 'Three, edited remotely.');
    await editRemote(remote);

    await kit.engine.syncOnce();

    expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
    expectDeletedLocally();
    // The change request deletes p-setup, so the same run re-created the page there, with the
    // remote text, where the file is.
    const recreated = (await crPages(crId)).filter((page) => page.title === 'Setup');
    expect(recreated).toHaveLength(1);
    expect(await crMarkdown(recreated[0]!.id)).toBe(remote);
    const again = await kit.engine.syncOnce();
    expect(handbook(again.spaces)?.queued ?? 0).toBe(0);

    await api().mergeChangeRequest(SPACE, crId);
    await kit.engine.syncOnce();
    expect(readFileSync(setupFile(), 'utf8')).toBe(remote);
    const { data } = await api().listPages(SPACE);
    type Node = { title: string; pages?: Node[] };
    const titles = (pages: Node[]): string[] =>
      pages.flatMap((page) => [page.title, ...titles(page.pages ?? [])]);
    expect(titles(data.pages as Node[]).filter((title) => title === 'Setup')).toHaveLength(1);
  });

  it('--mine after a pushed local delete deletes the re-created page again', async () => {
    rmSync(setupFile());
    await kit.engine.syncOnce();
    await editRemote(BASE.replace('Three.', 'Three, edited remotely.'));
    await kit.engine.syncOnce();
    await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'mine' });
    expect(existsSync(setupFile())).toBe(false);

    await kit.engine.syncOnce();
    const crId = (await workingChangeRequest())!;
    expect((await crPages(crId)).map((page) => page.title)).not.toContain('Setup');
  });

  it('a page moved locally and in conflict: the move is pushed, the text waits for resolve', async () => {
    kit.engine.pause();
    const local = BASE.replace('Two.', 'Two, mine.');
    rmSync(setupFile());
    writeFileSync(join(root, 'setup.md'), local);
    await kit.engine.pushOnce();
    await editRemote(BASE.replace('Two.', 'Two, theirs.'));
    kit.engine.resume();

    await kit.engine.syncOnce();

    expect(kit.engine.conflicts()).toEqual([
      expect.objectContaining({ kind: 'content', path: 'setup.md', pageId: 'p-setup' }),
    ]);
    expect(readFileSync(join(root, 'setup.md'), 'utf8')).toBe(local);
    const crId = (await workingChangeRequest())!;
    const { data } = await api().listPagesInChangeRequest(SPACE, crId);
    // Moved out of Guides to the top level; its text not pushed while in conflict.
    expect((data.pages as { id: string }[]).map((page) => page.id)).toContain('p-setup');
    expect(await crMarkdown('p-setup')).toBe(BASE.replace('Two.', 'Two, theirs.'));

    await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'mine' });
    await kit.engine.syncOnce();
    expect(await crMarkdown('p-setup')).toBe(local);
    const after = await api().listPagesInChangeRequest(SPACE, crId);
    expect((after.data.pages as { id: string }[]).map((page) => page.id)).toContain('p-setup');
  });

  it('resolving an unknown or resolved conflict changes nothing', async () => {
    await expect(kit.engine.resolveConflict(424242, { mode: 'mine' })).rejects.toThrow(
      /no conflict 424242/,
    );
  });
});
