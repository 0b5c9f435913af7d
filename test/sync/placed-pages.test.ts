import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, readTree, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * A page pushed from a local file can land at another path than that file: a new page that got
 * children is pulled as `<slug>/README.md`. Once the working change request is merged, the pull
 * moves the user's file there instead of writing a second copy (found by the sync model property
 * test: `notes.md` and `notes/README.md` with the same page).
 */
const SPACE = 's-handbook';

let t: TestServer;
let kit: EngineKit;
let root: string;

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = pushEngineFor(t);
  expect((await kit.engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
});
afterEach(async () => {
  kit.close();
  await t.close();
});

async function mergeWorkingChangeRequest(): Promise<void> {
  const api = t.client(TOKENS.ada).spaces;
  const { data } = await api.listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const cr = (data.items as { id: string; subject?: string }[]).find(
    (item) => item.subject === `Edits from ${TEST_DEVICE}`,
  );
  expect(cr).toBeDefined();
  const merged = await api.mergeChangeRequest(SPACE, cr!.id);
  expect((merged.data as { result?: string }).result).toBe('merge');
}

describe('pages placed elsewhere by the server', () => {
  it('moves a new page’s file to <slug>/README.md once it has children, keeping one copy', async () => {
    writeFileSync(join(root, 'notes.md'), '# Notes\n\nMine.\n');
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes/first.md'), '# First\n\nA child.\n');
    // The child waits for its new parent page: two pushes.
    await kit.engine.syncOnce();
    await kit.engine.syncOnce();
    await mergeWorkingChangeRequest();

    const pulled = await kit.engine.syncOnce();

    const handbook = pulled.spaces.find((space) => space.spaceId === SPACE);
    expect(handbook?.problems).toEqual([]);
    expect(existsSync(join(root, 'notes.md'))).toBe(false);
    expect(readFileSync(join(root, 'notes/README.md'), 'utf8')).toBe('# Notes\n\nMine.\n');
    expect(readFileSync(join(root, 'notes/first.md'), 'utf8')).toBe('# First\n\nA child.\n');
    const rows = kit.cache.prepare('SELECT count(*) AS n FROM local_edits').get() as { n: number };
    expect(rows.n).toBe(0);

    // Settled: nothing more to push or write.
    const before = readTree(root);
    const again = await kit.engine.syncOnce();
    const second = again.spaces.find((space) => space.spaceId === SPACE);
    expect(second?.queued ?? 0).toBe(0);
    expect(second?.written ?? []).toEqual([]);
    expect(readTree(root)).toEqual(before);
  });
});
