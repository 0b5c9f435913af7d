import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, remoteEdit, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * A local edit made while the space moved on the server, pushed when no working change request
 * exists yet: the change request is created from the current main, which already holds the
 * remote edit, so pushing the local file as it is would silently replace that edit there. The
 * sync must pull (merge or record a conflict) before it pushes such a page.
 */
const SPACE = 's-handbook';
const SETUP = 'guides/setup.md';
const BASE = '# Setup\n\nOne.\n\nTwo.\n\nThree.\n';

let t: TestServer;
let kit: EngineKit;
let root: string;
const setupFile = () => join(root, SETUP);
const api = () => t.client(TOKENS.ada).spaces;
const editRemote = (markdown: string) =>
  remoteEdit(t, SPACE, [{ operation: 'update_page', page: 'p-setup', document: { markdown } }]);

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = pushEngineFor(t);
  await editRemote(BASE);
  expect((await kit.engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
  expect(readFileSync(setupFile(), 'utf8')).toBe(BASE);
  expect(await workingChangeRequest()).toBeUndefined();
});
afterEach(async () => {
  kit.close();
  await t.close();
});

async function workingChangeRequest(): Promise<string | undefined> {
  const { data } = await api().listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  return items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`)?.id;
}

/** The page's Markdown in the working change request, or on main when there is none. */
async function proposedMarkdown(): Promise<string | undefined> {
  const crId = await workingChangeRequest();
  const { data } =
    crId === undefined
      ? await api().getPageById(SPACE, 'p-setup', { format: 'markdown' })
      : await api().getPageInChangeRequestById(SPACE, crId, 'p-setup', { format: 'markdown' });
  return (data as { markdown?: string }).markdown;
}

describe('a local edit pushed after the page changed remotely', () => {
  it('overlapping: recorded as a conflict, never pushed over the remote edit', async () => {
    const local = BASE.replace('Two.', 'Two, mine.');
    const remote = BASE.replace('Two.', 'Two, theirs.');
    writeFileSync(setupFile(), local);
    await editRemote(remote);

    await kit.engine.syncOnce();

    expect(kit.engine.conflicts()).toEqual([
      expect.objectContaining({ kind: 'content', path: SETUP, pageId: 'p-setup' }),
    ]);
    expect(readFileSync(setupFile(), 'utf8')).toBe(local);
    expect(await proposedMarkdown()).toBe(remote);

    // Later syncs and watch-mode pushes leave it alone until it is resolved...
    await kit.engine.syncOnce();
    await kit.engine.pushOnce();
    expect(await proposedMarkdown()).toBe(remote);
    expect(readFileSync(setupFile(), 'utf8')).toBe(local);
    expect(kit.engine.pendingChanges()).toBe(0);

    // ...and `--mine` pushes it.
    await kit.engine.resolveConflict(kit.engine.conflicts()[0]!.id, { mode: 'mine' });
    await kit.engine.syncOnce();
    expect(await proposedMarkdown()).toBe(local);
  });

  it('a further edit of a conflicted file is not pushed either', async () => {
    writeFileSync(setupFile(), BASE.replace('Two.', 'Two, mine.'));
    const remote = BASE.replace('Two.', 'Two, theirs.');
    await editRemote(remote);
    await kit.engine.syncOnce();
    expect(kit.engine.conflicts()).toHaveLength(1);

    const again = BASE.replace('Two.', 'Two, mine again.');
    writeFileSync(setupFile(), again);
    await kit.engine.pushOnce();
    expect(await proposedMarkdown()).toBe(remote);
    await kit.engine.syncOnce();
    expect(await proposedMarkdown()).toBe(remote);
    expect(readFileSync(setupFile(), 'utf8')).toBe(again);
    expect(kit.engine.conflicts()).toHaveLength(1);
  });

  it('non-overlapping: the change request ends with both edits', async () => {
    writeFileSync(setupFile(), BASE.replace('One.', 'One, locally.'));
    await editRemote(BASE.replace('Three.', 'Three, remotely.'));

    await kit.engine.syncOnce();

    const merged = '# Setup\n\nOne, locally.\n\nTwo.\n\nThree, remotely.\n';
    expect(kit.engine.conflicts()).toEqual([]);
    expect(readFileSync(setupFile(), 'utf8')).toBe(merged);
    expect(await workingChangeRequest()).toBeDefined();
    expect(await proposedMarkdown()).toBe(merged);
  });
});
