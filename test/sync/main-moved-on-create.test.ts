import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../src/main/sync/sync-engine';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import {
  LETTERS_FOLDER,
  LETTERS_SPACE as SPACE,
  lettersFixture,
  lettersRevision,
  workingChangeRequest,
} from './letters-space';
import { pushEngineFor, remoteEdit, type EngineKit } from './sync-test-kit';

/**
 * Main can move between the check made before sending (the listing) and the creation of the
 * working change request, which then starts from the new main. A page sent into it as the user
 * wrote it (against the older main) would replace the other user's edit of that page on merge
 * without the server seeing a conflict. The drain sends nothing to a change request made from
 * another main than the folder's; the same run lists again, pulls (merging or recording a
 * conflict) and only then sends.
 */
let t: TestServer;
let kit: EngineKit;
let engine: SyncEngine;
let root: string;
/** Set by a test: runs once, just before the engine's first change request creation. */
let beforeCreate: (() => Promise<void>) | undefined;

beforeEach(async () => {
  t = await startTestServer({ fixture: lettersFixture() });
  const racingFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method === 'POST' && /\/change-requests$/.test(url.pathname) && beforeCreate) {
      const race = beforeCreate;
      beforeCreate = undefined;
      await race();
    }
    return fetch(input, init);
  };
  kit = pushEngineFor(t, TOKENS.ada, { fetch: racingFetch });
  engine = kit.engine;
  expect((await engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, ...LETTERS_FOLDER);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const LOCAL = '# Alpha\n\nFirst letter, mine.\n';
const REMOTE = '# Alpha\n\nFirst letter, theirs.\n';
const editAlphaRemotely = () =>
  remoteEdit(t, SPACE, [
    { operation: 'update_page', page: 'p-alpha', document: { markdown: REMOTE } },
  ]);

describe('main moving while the working change request is created', () => {
  it('a sync sends nothing over it: it pulls first and records the conflict', async () => {
    writeFileSync(join(root, 'alpha.md'), LOCAL);
    beforeCreate = editAlphaRemotely;

    const report = await engine.syncOnce();

    expect(report.errors).toEqual([]);
    expect(beforeCreate).toBeUndefined();
    expect(engine.conflicts()).toEqual([
      expect.objectContaining({ kind: 'content', path: 'alpha.md', pageId: 'p-alpha' }),
    ]);
    expect(readFileSync(join(root, 'alpha.md'), 'utf8')).toBe(LOCAL);
    const working = await workingChangeRequest(t);
    const proposed = await lettersRevision(t, working!.revision);
    // The other user's edit is intact in the change request: nothing replaced it.
    expect(proposed.markdown.get('Alpha')).toBe(REMOTE);
  });

  it('a save (push only) waits for the pull, then merges cleanly with the remote edit', async () => {
    const theirs = '# Alpha\n\nFirst letter.\n\nTheirs below.\n';
    writeFileSync(join(root, 'alpha.md'), '# Alpha, mine\n\nFirst letter.\n');
    beforeCreate = () =>
      remoteEdit(t, SPACE, [
        { operation: 'update_page', page: 'p-alpha', document: { markdown: theirs } },
      ]);

    const pushed = await engine.pushOnce();
    expect(pushed.spaces[0]?.mainMoved).toBe(true);
    const untouched = await lettersRevision(t, (await workingChangeRequest(t))!.revision);
    expect(untouched.markdown.get('Alpha')).toBe(theirs);

    expect((await engine.syncOnce()).errors).toEqual([]);
    const merged = '# Alpha, mine\n\nFirst letter.\n\nTheirs below.\n';
    expect(readFileSync(join(root, 'alpha.md'), 'utf8')).toBe(merged);
    const proposed = await lettersRevision(t, (await workingChangeRequest(t))!.revision);
    expect(proposed.markdown.get('Alpha, mine')).toBe(merged);
  });
});
