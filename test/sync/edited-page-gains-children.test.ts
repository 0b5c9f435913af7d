import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import {
  ALPHA,
  HOME,
  LETTERS_SPACE as SPACE,
  openLetters,
  type LettersKit,
  lettersRevision,
  workingChangeRequest,
  writeAt,
} from './letters-space';
import type { EngineKit } from './sync-test-kit';

/**
 * A page whose file is edited locally while main gives it children (a page created in its
 * folder, pushed and merged) moves to `<page>/README.md` with the pull. Its edit row once stayed
 * at the old path, so the next push took the page for deleted there and deleted it, its edit
 * with it (found by sync-model.property.test.ts once it merged working change requests).
 */
let letters: LettersKit;
let t: TestServer;
let kit: EngineKit;
let root: string;
const api = () => t.client(TOKENS.ada).spaces;

beforeEach(async () => {
  letters = await openLetters([
    HOME,
    {
      id: 'p-guides',
      title: 'Guides',
      markdown: '# Guides\n\nHow to.\n',
      pages: [{ id: 'p-usage', title: 'Usage', markdown: '# Usage\n\nRun it.\n' }],
    },
    ALPHA,
  ]);
  ({ t, kit, root } = letters);
});
afterEach(() => letters.close());

async function mergeWorking(): Promise<void> {
  const working = await workingChangeRequest(t);
  const { data } = await api().mergeChangeRequest(SPACE, working!.id);
  expect((data as { result?: string }).result).toBe('merge');
}

describe('an edited page that gains children on main', () => {
  it('moves with its edit to <page>/README.md, and the edit is pushed, not the page deleted', async () => {
    writeAt(root, 'guides/usage/note1.md', '# Note1\n\nLocal edit m1.\n');
    await kit.engine.syncOnce();
    // As in the model's counterexample, another page moves in the same pass.
    renameSync(join(root, 'alpha.md'), join(root, 'moved.md'));
    writeAt(root, 'guides/usage.md', '# Usage\n\nLocal edit m2.\n');
    await mergeWorking();

    const pulled = await kit.engine.syncOnce();
    expect(pulled.spaces[0]?.problems).toEqual([]);
    expect(existsSync(join(root, 'guides/usage.md'))).toBe(false);
    const usage = join(root, 'guides/usage/README.md');
    expect(readFileSync(usage, 'utf8')).toBe('# Usage\n\nLocal edit m2.\n');
    const again = await kit.engine.syncOnce();
    expect(again.spaces.flatMap((space) => space.problems)).toEqual([]);
    await mergeWorking();
    await kit.engine.syncOnce();
    await kit.engine.syncOnce();
    // Nothing left to send: the edit is on main, and no deletion of Usage was queued.
    expect(await workingChangeRequest(t)).toBeUndefined();
    expect(kit.engine.pendingChanges()).toBe(0);

    const main = await lettersRevision(t);
    expect(main.outline).toEqual(['Home', { Guides: [{ Usage: ['Note1'] }] }, 'Alpha']);
    expect(main.markdown.get('Usage')).toBe('# Usage\n\nLocal edit m2.\n');
    expect(readFileSync(usage, 'utf8')).toBe('# Usage\n\nLocal edit m2.\n');
  });
});
