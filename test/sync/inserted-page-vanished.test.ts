import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import { engineFor, remoteEdit, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * New pages queued by two pushes in the same millisecond (the queue-only push before a pull and
 * the draining one after it, or two pushes while paused) once got the same insert key: refs
 * restart at 1 on every push, and the key was ref@time. The outbox took the second insert for the
 * first page inserted again, so one file's page was replaced by the other's, both files were given
 * that page's id, and the read-back wrote the other file's Markdown over the first: its text was
 * lost (found by sync-model.property.test.ts, whose engine clock only moves between commands).
 */
const SPACE = 's-letters';

function fixture(): Fixture {
  return {
    users: [{ id: 'u-ada', displayName: 'Ada', email: 'ada@letters.test', tokens: [TOKENS.ada] }],
    organizations: [
      {
        id: 'o-letters',
        title: 'Letters',
        members: [{ user: 'u-ada', role: 'admin' }],
        spaces: [
          {
            id: SPACE,
            title: 'Letters',
            pages: [
              { id: 'p-home', title: 'Home', markdown: '# Home\n\nWelcome.\n' },
              { id: 'p-alpha', title: 'Alpha', markdown: '# Alpha\n\nFirst letter.\n' },
              { id: 'p-beta', title: 'Beta', markdown: '# Beta\n\nSecond letter.\n' },
            ],
          },
        ],
      },
    ],
  };
}

let t: TestServer;
let kit: EngineKit;
let engine: SyncEngine;
let root: string;
const api = () => t.client(TOKENS.ada).spaces;

beforeEach(async () => {
  t = await startTestServer({ fixture: fixture() });
  kit = engineFor(t);
  // A clock that never moves: every push of the test runs in the same millisecond.
  const frozen = new Date(Date.UTC(2026, 0, 1));
  const client = new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada });
  engine = new SyncEngine({
    cache: kit.cache,
    remote: client,
    folder: kit.folder,
    clock: { now: () => frozen },
    push: {
      remote: new WorkspaceOutboxRemote(client),
      deviceName: TEST_DEVICE,
      maxOfflineWaits: 0,
    },
  });
  expect((await engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, 'Letters', 'Letters');
});
afterEach(async () => {
  kit.close();
  await t.close();
});

function write(relative: string, text: string): void {
  mkdirSync(dirname(join(root, relative)), { recursive: true });
  writeFileSync(join(root, relative), text);
}

const read = (relative: string) => readFileSync(join(root, relative), 'utf8');

async function workingChangeRequest(): Promise<{ id: string; revision: string }> {
  const { data } = await api().listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; revision: string; subject?: string }[];
  const found = items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`);
  if (found === undefined) throw new Error('no working change request');
  return found;
}

/** Title → Markdown of every page of a revision (main when none is given). */
async function pagesOf(revisionId?: string): Promise<Map<string, string>> {
  const { data: space } = await api().getSpaceById(SPACE);
  const revision = revisionId ?? (space as { revision: string }).revision;
  const client = new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada });
  const { pages } = await client.getRevision(SPACE, revision);
  const result = new Map<string, string>();
  const visit = (list: typeof pages) => {
    for (const page of list) {
      result.set(page.title, page.markdown ?? '');
      visit(page.pages);
    }
  };
  visit(pages);
  return result;
}

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
    // Not pushable before the pull (no page owns alpha/ once alpha.md moved), pushed after it.
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
    expect(main.get('Note3')).toBe(NOTE3);
    expect(read('note1.md')).toBe(NOTE1);
    expect(read('note2.md')).toBe(NOTE2);
    expect(engine.status()[0]?.problems).toEqual([]);
  });
});
