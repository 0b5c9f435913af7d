import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../src/main/cache/open-cache-database';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine, type SpaceSyncReport } from '../../src/main/sync/sync-engine';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { testFixture, TOKENS } from '../support/test-fixture';
import {
  fileStamps,
  pushEngineFor,
  remoteEdit,
  TEST_DEVICE,
  type EngineKit,
} from './sync-test-kit';

/**
 * Issue 15 §1, against the real server: links to pages that have children, the way Git Sync
 * writes them in page bodies (`guide/`, `./`, `../`, never `…/README.md`), kept as page
 * references on the server so they follow the page when it moves, and written back in the form
 * the user wrote them.
 *
 *   README.md            Home
 *   guide/README.md      Guide
 *   guide/setup.md       Setup
 *   guide/deep/README.md Deep
 *   guide/deep/leaf.md   Leaf
 *   other.md             Other
 */
const SPACE = 's-links';

function linksFixture() {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({
    id: SPACE,
    title: 'Links',
    pages: [
      {
        id: 'p-home',
        title: 'Home',
        markdown: '# Home\n\n[Guide](/pages/p-guide) and [Deep](/pages/p-deep#part).\n',
      },
      {
        id: 'p-guide',
        title: 'Guide',
        markdown: '# Guide\n\n[Me](/pages/p-guide) [Deep](/pages/p-deep) [Setup](/pages/p-setup)\n',
        pages: [
          {
            id: 'p-setup',
            title: 'Setup',
            markdown: '# Setup\n\n[Guide](/pages/p-guide) [Top](/pages/p-guide#top)\n',
          },
          {
            id: 'p-deep',
            title: 'Deep',
            markdown: '# Deep\n',
            pages: [
              {
                id: 'p-leaf',
                title: 'Leaf',
                markdown:
                  '# Leaf\n\n[Up](/pages/p-deep) [Guide](/pages/p-guide) [Home](/pages/p-home)\n',
              },
            ],
          },
        ],
      },
      { id: 'p-other', title: 'Other', markdown: '# Other\n' },
    ],
  });
  return fixture;
}

let t: TestServer;
let kit: EngineKit;
let root: string;

beforeEach(async () => {
  t = await startTestServer({ fixture: linksFixture() });
  kit = pushEngineFor(t);
  const first = await kit.engine.syncOnce();
  expect(first.errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Links');
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const api = () => t.client(TOKENS.ada).spaces;
const engineConflicts = () => kit.engine.status().find((space) => space.id === SPACE)?.conflicts;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const report = (reports: readonly SpaceSyncReport[]) =>
  reports.find((space) => space.spaceId === SPACE);

async function workingChangeRequest(): Promise<string> {
  const { data } = await api().listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  const found = items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`);
  expect(found).toBeDefined();
  return found!.id;
}

async function crMarkdown(crId: string, pageId: string): Promise<string> {
  const { data } = await api().getPageInChangeRequestById(SPACE, crId, pageId, {
    format: 'markdown',
  });
  return (data as { markdown?: string }).markdown ?? '';
}

describe('folder links (Git Sync form)', () => {
  it('mirrors links to pages with children by their folder, anchors kept, without churn', async () => {
    expect(read('README.md')).toBe('# Home\n\n[Guide](guide/) and [Deep](guide/deep/#part).\n');
    expect(read('guide/README.md')).toBe('# Guide\n\n[Me](./) [Deep](deep/) [Setup](setup.md)\n');
    expect(read('guide/setup.md')).toBe('# Setup\n\n[Guide](./) [Top](./#top)\n');
    expect(read('guide/deep/leaf.md')).toBe('# Leaf\n\n[Up](./) [Guide](../) [Home](../../)\n');
    // SUMMARY.md keeps README.md paths, as Git Sync writes them there.
    expect(read('SUMMARY.md')).toContain('* [Guide](guide/README.md)');

    const stamps = fileStamps(root);
    const again = await kit.engine.syncOnce();
    expect(report(again.spaces)?.queued ?? 0).toBe(0);
    expect(fileStamps(root)).toEqual(stamps);
  });

  it('follows the page when it moves on the server', async () => {
    await remoteEdit(t, SPACE, [{ operation: 'update_page', page: 'p-deep', into: 'p-other' }]);
    const pulled = await kit.engine.syncOnce();
    expect(report(pulled.spaces)?.problems).toEqual([]);
    expect(read('README.md')).toBe('# Home\n\n[Guide](guide/) and [Deep](other/deep/#part).\n');
    expect(read('guide/README.md')).toBe(
      '# Guide\n\n[Me](./) [Deep](../other/deep/) [Setup](setup.md)\n',
    );
    expect(read('other/deep/leaf.md')).toBe(
      '# Leaf\n\n[Up](./) [Guide](../../guide/) [Home](../../)\n',
    );
  });

  it('pushes folder links as page references, keeps the forms written, and follows moves', async () => {
    const written = [
      '# Setup',
      '',
      '[a](./) [b](./#top) [c](deep/) [d](deep/#x) [e](deep) [f](deep/README.md) [g](../)',
      '[h](README.md) [i](../other.md) [j](deep/leaf.md) [k](<./deep/>) [l](nowhere/)',
      '',
    ].join('\n');
    writeFileSync(join(root, 'guide/setup.md'), written);
    const pushed = await kit.engine.syncOnce();
    expect(report(pushed.spaces)?.problems).toEqual([]);

    const crId = await workingChangeRequest();
    expect(await crMarkdown(crId, 'p-setup')).toBe(
      [
        '# Setup',
        '',
        '[a](/pages/p-guide) [b](/pages/p-guide#top) [c](/pages/p-deep) [d](/pages/p-deep#x) [e](/pages/p-deep) [f](/pages/p-deep) [g](/pages/p-home)',
        '[h](/pages/p-guide) [i](/pages/p-other) [j](/pages/p-leaf) [k](/pages/p-deep) [l](nowhere/)',
        '',
      ].join('\n'),
    );
    // The document the API serves links the pages themselves.
    const { data } = await api().getPageInChangeRequestById(SPACE, crId, 'p-setup', {
      format: 'document',
    });
    const document = JSON.stringify((data as { document?: unknown }).document);
    expect(document).toContain('{"kind":"page","page":"p-deep"}');
    expect(document).toContain('{"kind":"anchor","anchor":"x","page":"p-deep"}');
    // Read back and written back in the form the user wrote, angle brackets aside.
    const kept = written.replace('<./deep/>', './deep/');
    expect(read('guide/setup.md')).toBe(kept);

    await api().mergeChangeRequest(SPACE, crId);
    const merged = await kit.engine.syncOnce();
    expect(report(merged.spaces)?.queued ?? 0).toBe(0);
    expect(read('guide/setup.md')).toBe(kept);
    const rows = kit.cache.prepare('SELECT count(*) AS n FROM local_edits').get() as { n: number };
    expect(rows.n).toBe(0);

    // An edit elsewhere on the server: the links stay as written.
    await remoteEdit(t, SPACE, [
      { operation: 'update_page', page: 'p-other', document: { markdown: '# Other\n\nMore.\n' } },
    ]);
    await kit.engine.syncOnce();
    expect(read('guide/setup.md')).toBe(kept);

    // Deep moves: every link to it follows (in Git Sync's form); the others stay as written.
    await remoteEdit(t, SPACE, [{ operation: 'update_page', page: 'p-deep', into: 'p-other' }]);
    const moved = await kit.engine.syncOnce();
    expect(report(moved.spaces)?.problems).toEqual([]);
    expect(read('guide/setup.md')).toBe(
      [
        '# Setup',
        '',
        '[a](./) [b](./#top) [c](../other/deep/) [d](../other/deep/#x) [e](../other/deep/) [f](../other/deep/) [g](../)',
        '[h](README.md) [i](../other/) [j](../other/deep/leaf.md) [k](../other/deep/) [l](nowhere/)',
        '',
      ].join('\n'),
    );
  });

  it('an edit that changes only how a link is written stays, and settles once main moves', async () => {
    const written = '# Setup\n\n[Guide](README.md) [Top](README.md#top)\n';
    writeFileSync(join(root, 'guide/setup.md'), written);
    const pushed = await kit.engine.syncOnce();
    expect(report(pushed.spaces)?.problems).toEqual([]);
    expect(read('guide/setup.md')).toBe(written);

    await remoteEdit(t, SPACE, [
      { operation: 'update_page', page: 'p-other', document: { markdown: '# Other\n\nMore.\n' } },
    ]);
    const pulled = await kit.engine.syncOnce();
    expect(report(pulled.spaces)?.problems).toEqual([]);
    expect(engineConflicts()).toBe(0);
    expect(read('guide/setup.md')).toBe(written);
    const rows = kit.cache.prepare('SELECT count(*) AS n FROM local_edits').get() as { n: number };
    expect(rows.n).toBe(0);
  });

  it('a new home on the folder adopts files whose links are written in another form', async () => {
    const written = '# Setup\n\n[Guide](README.md) [Deep](deep/README.md#x) [Also](./deep)\n';
    writeFileSync(join(root, 'guide/setup.md'), written);
    await kit.engine.syncOnce();
    await api().mergeChangeRequest(SPACE, await workingChangeRequest());
    await kit.engine.syncOnce();
    expect(read('guide/setup.md')).toBe(written);

    // The home is lost; another one (no cache) mirrors into the same folder.
    const home = mkdtempSync(join(tmpdir(), 'quire-links-home-'));
    const cache = openCacheDatabase(join(home, 'cache.db'));
    try {
      const engine = new SyncEngine({
        cache,
        remote: new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada }),
        folder: kit.folder,
        clock: { now: () => new Date() },
      });
      const adopted = await engine.syncOnce();
      expect(report(adopted.spaces)?.problems).toEqual([]);
      expect(engine.status().find((space) => space.id === SPACE)?.conflicts).toBe(0);
      expect(read('guide/setup.md')).toBe(written);
    } finally {
      cache.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
