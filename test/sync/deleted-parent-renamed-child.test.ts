import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/main/outbox/outbox';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import {
  ALPHA,
  HOME,
  LETTERS_FOLDER,
  LETTERS_SPACE as SPACE,
  lettersRevision,
  openLetters,
  type LettersKit,
  workingChangeRequest,
} from './letters-space';
import { engineFor, readTree, treeAsText, type EngineKit } from './sync-test-kit';

/**
 * A page file renamed into a folder no page owns is left where it was (its move is reported, not
 * pushed), but a change of the page may still go out from its new file: its parent was deleted
 * (the page is lifted out of it), or it was edited there. The push recorded the new file for the
 * page and not the old one's deletion, so the next push took the page for deleted: a
 * `delete_page` the server refused ("page p-setup does not exist": it went with its parent), or
 * one that deleted a page whose text was still in the folder (found by
 * sync-model.property.test.ts: delete guides/README.md, rename guides/setup.md, watch push).
 */
let letters: LettersKit;
let t: TestServer;
let kit: EngineKit;
let root: string;

const GUIDES = {
  id: 'p-guides',
  title: 'Guides',
  markdown: '# Guides\n\nHow to.\n',
  pages: [
    { id: 'p-setup', title: 'Setup', markdown: '# Setup\n\nInstall it.\n' },
    { id: 'p-usage', title: 'Usage', markdown: '# Usage\n\nRun it.\n' },
  ],
};

beforeEach(async () => {
  letters = await openLetters([HOME, ALPHA, GUIDES]);
  ({ t, kit, root } = letters);
});
afterEach(() => letters.close());

const outbox = () => new Outbox({ db: kit.cache, clock: { now: () => new Date() } });

/** Merges the working change request, then syncs twice (the pull, then a quiet pass). */
async function mergeAndSync(): Promise<void> {
  const working = await workingChangeRequest(t);
  expect(working).toBeDefined();
  await t.client(TOKENS.ada).spaces.mergeChangeRequest(SPACE, working!.id);
  for (let i = 0; i < 2; i++) expect((await kit.engine.syncOnce()).errors).toEqual([]);
}

/** What a brand-new engine writes for the space now. */
async function freshFolder(): Promise<Record<string, string>> {
  const fresh = engineFor(t);
  try {
    expect((await fresh.engine.syncOnce()).errors).toEqual([]);
    return treeAsText(readTree(join(fresh.folder, ...LETTERS_FOLDER)));
  } finally {
    fresh.close();
  }
}

describe('a page file renamed beside its deleted parent, in a folder no page owns now', () => {
  it('is lifted out of the parent, never deleted or refused, and the folder converges', async () => {
    rmSync(join(root, 'guides/README.md'));
    renameSync(join(root, 'guides/setup.md'), join(root, 'guides/moved1.md'));

    const first = await kit.engine.pushOnce();
    expect(first.spaces[0]?.problems).toEqual([]);
    expect(outbox().failed(SPACE)).toEqual([]);
    // Nothing left to push: the page is not taken for deleted by a second pass.
    const second = await kit.engine.pushOnce();
    expect(second.spaces[0]?.queued ?? 0).toBe(0);
    expect(outbox().failed(SPACE)).toEqual([]);
    const working = await workingChangeRequest(t);
    expect((await lettersRevision(t, working!.revision)).outline).toEqual([
      'Home',
      'Alpha',
      'Setup',
      'Usage',
    ]);

    await mergeAndSync();
    expect(outbox().count(SPACE)).toBe(0);
    expect(treeAsText(readTree(root))).toEqual(await freshFolder());
    expect(readFileSync(join(root, 'setup.md'), 'utf8')).toContain('Install it.');
  });
});
