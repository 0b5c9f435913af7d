import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import {
  LETTERS_SPACE as SPACE,
  openLetters,
  type LettersKit,
  lettersRevision,
  workingChangeRequest as findWorkingChangeRequest,
  writeAt,
} from './letters-space';
import { readTree, remoteEdit, type EngineKit } from './sync-test-kit';

/**
 * A page moved locally whose move is not on main yet (queued, or in the working change request)
 * stays where the user put it when another user's edit is pulled. The pull once took "main has
 * the page's bytes at another path" for the server having placed it there, and moved the file
 * back: the user's move was undone, a new file in the page's old folder was then inserted under
 * it in the change request (where it had moved), and deleting its new parent there took the new
 * page along (found by sync-model.property.test.ts). Once the working change request is merged,
 * the page's file does follow the server's placement.
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

const write = (relative: string, text: string) => writeAt(root, relative, text);
const files = () => [...readTree(root).keys()].filter((path) => path !== 'SUMMARY.md').sort();
const NOTE = '# Note1\n\nLocal edit m1.\n';
const workingChangeRequest = () => findWorkingChangeRequest(t);
const outline = async (revisionId?: string) => (await lettersRevision(t, revisionId)).outline;

async function remoteHomeEdit(n: number): Promise<void> {
  await remoteEdit(t, SPACE, [
    {
      operation: 'update_page',
      page: 'p-home',
      document: { markdown: `# Home\n\nRemote edit r${n}.\n` },
    },
  ]);
}

describe('a page moved locally, its move not on main yet', () => {
  it('stays where the user put it through pulls, and follows the server once merged', async () => {
    // alpha/ gains a new page, then Alpha moves into Beta: alpha/ has no page any more.
    write('alpha/note1.md', NOTE);
    mkdirSync(join(root, 'beta'));
    renameSync(join(root, 'alpha.md'), join(root, 'beta/alpha.md'));
    await remoteHomeEdit(1);

    const first = await kit.engine.syncOnce();
    const [space] = first.spaces;
    expect(space?.problems.map((problem) => [problem.kind, problem.path])).toEqual([
      ['not-pushed', 'alpha/note1.md'],
    ]);
    expect(files()).toEqual(['README.md', 'alpha/note1.md', 'beta.md', 'beta/alpha.md']);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('Remote edit r1.');
    const working = await workingChangeRequest();
    expect(await outline(working!.revision)).toEqual(['Home', { Beta: ['Alpha'] }]);

    // Beta deleted: Alpha, whose file is kept, is lifted out of it rather than deleted with it.
    rmSync(join(root, 'beta.md'));
    await remoteHomeEdit(2);
    const second = await kit.engine.syncOnce();
    expect(second.spaces[0]?.problems.map((problem) => problem.path)).toEqual(['alpha/note1.md']);
    expect(files()).toEqual(['README.md', 'alpha/note1.md', 'beta/alpha.md']);
    expect(await outline((await workingChangeRequest())!.revision)).toEqual(['Home', 'Alpha']);

    // Merged: Alpha's file follows the server to alpha.md, which owns alpha/ again, so the new
    // page is pushed (the stale problem of the push before the pull is not reported).
    await api().mergeChangeRequest(SPACE, working!.id);
    const third = await kit.engine.syncOnce();
    expect(third.spaces[0]?.problems).toEqual([]);
    expect(files()).toEqual(['README.md', 'alpha.md', 'alpha/note1.md']);
    const next = await workingChangeRequest();
    expect(next?.id).not.toBe(working!.id);
    expect(await outline(next!.revision)).toEqual(['Home', { Alpha: ['Note1'] }]);

    await api().mergeChangeRequest(SPACE, next!.id);
    expect((await kit.engine.syncOnce()).errors).toEqual([]);
    expect(await outline()).toEqual(['Home', { Alpha: ['Note1'] }]);
    expect(files()).toEqual(['README.md', 'alpha/README.md', 'alpha/note1.md']);
    expect(readFileSync(join(root, 'alpha/note1.md'), 'utf8')).toBe(NOTE);
  });

  it('a queued move is not undone by a pull when the space moved remotely', async () => {
    kit.engine.pause();
    mkdirSync(join(root, 'beta'));
    renameSync(join(root, 'alpha.md'), join(root, 'beta/alpha.md'));
    await kit.engine.pushOnce();
    await remoteHomeEdit(1);
    // Paused: the pull runs, the move stays queued.
    await kit.engine.syncOnce();
    expect(files()).toEqual(['README.md', 'beta.md', 'beta/alpha.md']);
    kit.engine.resume();
    expect((await kit.engine.syncOnce()).errors).toEqual([]);
    expect(files()).toEqual(['README.md', 'beta.md', 'beta/alpha.md']);
    expect(await outline((await workingChangeRequest())!.revision)).toEqual([
      'Home',
      { Beta: ['Alpha'] },
    ]);
  });
});
