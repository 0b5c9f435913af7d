import { mkdirSync, readFileSync, renameSync } from 'node:fs';
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
  workingChangeRequest as findWorkingChangeRequest,
  writeAt,
} from './letters-space';
import { pushEngineFor, remoteEdit, type EngineKit } from './sync-test-kit';

/**
 * New pages queued by two pushes in the same millisecond (the queue-only push before a pull and
 * the draining one after it, or two pushes while paused) once got the same insert key: refs
 * restart at 1 on every push, and the key was ref@time. The outbox took the second insert for the
 * first page inserted again, so one file's page was replaced by the other's, both files were given
 * that page's id, and the read-back wrote the other file's Markdown over the first: its text was
 * lost (found by sync-model.property.test.ts, whose engine clock only moves between commands).
 */
let t: TestServer;
let kit: EngineKit;
let engine: SyncEngine;
let root: string;
const api = () => t.client(TOKENS.ada).spaces;

beforeEach(async () => {
  t = await startTestServer({ fixture: lettersFixture() });
  // A clock that never moves: every push of the test runs in the same millisecond.
  const frozen = new Date(Date.UTC(2026, 0, 1));
  kit = pushEngineFor(t, TOKENS.ada, { now: () => frozen });
  engine = kit.engine;
  expect((await engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, ...LETTERS_FOLDER);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const write = (relative: string, text: string) => writeAt(root, relative, text);
const read = (relative: string) => readFileSync(join(root, relative), 'utf8');

async function workingChangeRequest(): Promise<{ id: string; revision: string }> {
  const found = await findWorkingChangeRequest(t);
  if (found === undefined) throw new Error('no working change request');
  return found;
}

/** Title → Markdown of every page of a revision (main when none is given). */
const pagesOf = async (revisionId?: string) => (await lettersRevision(t, revisionId)).markdown;

const NOTE1 = '# Note1\n\nLocal edit m1.\n';
const NOTE2 = '# Note2\n\nLocal edit m2.\n';
const NOTE3 = '# Note3\n\nLocal edit m3.\n';

describe('new pages queued by pushes in the same millisecond', () => {
  it('two pushes while paused: each file keeps its own page and text', async () => {
    engine.pause();
    write('note1.md', NOTE1);
    await engine.pushOnce();
    write('note2.md', NOTE2);
    await engine.pushOnce();
    engine.resume();

    const report = await engine.syncOnce();
    expect(report.errors).toEqual([]);
    expect(read('note1.md')).toBe(NOTE1);
    expect(read('note2.md')).toBe(NOTE2);
    const proposed = await pagesOf((await workingChangeRequest()).revision);
    expect(proposed.get('Note1')).toBe(NOTE1);
    expect(proposed.get('Note2')).toBe(NOTE2);
  });

  it('queued before a pull and after it (the model test case): nothing lost after the merge', async () => {
    write('note1.md', NOTE1);
    await remoteEdit(t, SPACE, [
      {
        operation: 'update_page',
        page: 'p-home',
        document: { markdown: '# Home\n\nRemote edit r1.\n' },
      },
    ]);
    write('note2.md', NOTE2);
    // Not pushable while no page owns alpha/ (alpha.md moved into beta/): kept and reported.
    write('alpha/note3.md', NOTE3);
    mkdirSync(join(root, 'beta'));
    renameSync(join(root, 'alpha.md'), join(root, 'beta/alpha.md'));

    expect((await engine.syncOnce()).errors).toEqual([]);
    expect(read('note1.md')).toBe(NOTE1);
    expect(read('note2.md')).toBe(NOTE2);

    await engine.syncOnce();
    const { data: merged } = await api().mergeChangeRequest(
      SPACE,
      (await workingChangeRequest()).id,
    );
    expect((merged as { result?: string }).result).toBe('merge');
    for (let i = 0; i < 3; i++) expect((await engine.syncOnce()).errors).toEqual([]);

    const main = await pagesOf();
    expect(main.get('Note1')).toBe(NOTE1);
    expect(main.get('Note2')).toBe(NOTE2);
    expect(main.has('Note3')).toBe(false);
    expect(read('note1.md')).toBe(NOTE1);
    expect(read('note2.md')).toBe(NOTE2);
    expect(read('alpha/note3.md')).toBe(NOTE3);
    expect(read('beta/alpha.md')).toBe('# Alpha\n\nFirst letter.\n');
    expect(engine.status()[0]?.problems.map((problem) => problem.path)).toEqual(['alpha/note3.md']);
  });
});
