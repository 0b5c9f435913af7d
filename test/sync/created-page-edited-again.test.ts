import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import {
  LETTERS_SPACE as SPACE,
  openLetters,
  type LettersKit,
  lettersRevision,
  workingChangeRequest,
  writeAt,
} from './letters-space';
import type { EngineKit } from './sync-test-kit';

/**
 * A page created here and pushed, edited again, then its change request merged with the first
 * version: the file is this device's pending edit of that page, not a file of unknown origin.
 * The pull must neither report it nor record a conflict (there is no other side to it), and the
 * second version must reach the server.
 */
let letters: LettersKit;
let t: TestServer;
let kit: EngineKit;
let root: string;
const api = () => t.client(TOKENS.ada).spaces;

beforeEach(async () => {
  letters = await openLetters();
  ({ t, kit, root } = letters);
});
afterEach(() => letters.close());

async function mergeWorking(): Promise<void> {
  const working = await workingChangeRequest(t);
  const { data } = await api().mergeChangeRequest(SPACE, working!.id);
  expect((data as { result?: string }).result).toBe('merge');
}

describe('a page created here, edited again before its change request is merged', () => {
  it('is pulled as a pending local edit and pushed, with no problem or conflict', async () => {
    writeAt(root, 'notes.md', '# Notes\n\nFirst.\n');
    await kit.engine.syncOnce();
    writeAt(root, 'notes.md', '# Notes\n\nSecond.\n');
    await mergeWorking();

    const pulled = await kit.engine.syncOnce();
    expect(pulled.spaces.flatMap((space) => space.problems)).toEqual([]);
    expect(kit.engine.conflicts()).toEqual([]);
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('# Notes\n\nSecond.\n');
    await kit.engine.syncOnce();
    await mergeWorking();
    await kit.engine.syncOnce();

    expect((await lettersRevision(t)).markdown.get('Notes')).toBe('# Notes\n\nSecond.\n');
    expect(kit.engine.status()[0]!.problems).toEqual([]);
    expect(kit.engine.pendingChanges()).toBe(0);
    expect(await workingChangeRequest(t)).toBeUndefined();
  });
});
