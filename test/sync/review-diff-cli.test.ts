import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RevisionSemanticChange } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestDiff, PageDiff } from '../../src/shared/contract/change-requests';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { openChangeRequest } from './checkout-kit';
import { inProcessQuire, type QuireRun } from './in-process-quire';

/**
 * A change request of 100+ changed pages written the way a user does it (a checkout, edited, then
 * `quire sync`), read by the reviewer with `quire cr diff`: the same pages as the server's
 * `GET …/changes`. (The diff's computation itself is covered by change-requests-mirror.test.ts.)
 */
const SPACE = 's-lab';
const PAGES = 110;
let t: TestServer;
let dir: string;
let cr: { id: string; number: number };
const dora = (...args: string[]) => inProcessQuire(dir, 'dora')(...args);
const cleo = (...args: string[]) => inProcessQuire(dir, 'cleo')(...args);

function ok(run: QuireRun): QuireRun {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({
    id: SPACE,
    title: 'Review lab',
    pages: Array.from({ length: PAGES }, (_, i) => ({
      id: `r-${i}`,
      title: `Page ${i}`,
      markdown: `# Page ${i}\n\nline one\nThe quick brown fox\nline three\n`,
    })),
  });
  t = await startTestServer({ fixture });
  dir = mkdtempSync(join(tmpdir(), 'quire-review-diff-'));
  cr = await openChangeRequest(t, SPACE, 'Big review');
  for (const [quire, token, name] of [
    [dora, TOKENS.dora, 'dora'],
    [cleo, TOKENS.cleo, 'cleo'],
  ] as const) {
    const folder = join(dir, `${name}-mirror`);
    ok(await quire('login', '--server', t.url, '--token', token, '--folder', folder));
    ok(await quire('sync', '--once'));
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The server's page changes and the CLI's diff, in one comparable form. */
function serverChanges(changes: readonly RevisionSemanticChange[]): string[] {
  return changes
    .filter((change) => change.type.startsWith('page_'))
    .map((change) => `${change.type} ${(change as { page: { id: string } }).page.id}`)
    .sort();
}

function ourChanges(pages: readonly PageDiff[]): string[] {
  return pages
    .flatMap((page) => {
      if (page.status === 'added') return [`page_created ${page.pageId}`];
      if (page.status === 'removed') return [`page_deleted ${page.pageId}`];
      const edited = page.contentChanged || page.renamedFrom !== null || page.fields.length > 0;
      return [
        ...(edited ? [`page_edited ${page.pageId}`] : []),
        ...(page.moved ? [`page_moved ${page.pageId}`] : []),
      ];
    })
    .sort();
}

describe('quire cr diff of a change request written in a checkout', () => {
  it('lists the 100+ pages the server lists under /changes', async () => {
    const out = ok(await dora('cr', 'checkout', 'Review lab', String(cr.number)));
    const folder = join(
      dir,
      'dora-mirror',
      'Acme',
      'Review lab (change requests)',
      `${cr.number} Big review`,
    );
    expect(out.stdout).toContain(folder);
    const pages = readdirSync(folder)
      .filter((name) => name.endsWith('.md') && name !== 'SUMMARY.md')
      .sort();
    expect(pages).toHaveLength(PAGES);
    for (const name of pages.slice(0, 100)) {
      const text = readFileSync(join(folder, name), 'utf8');
      writeFileSync(join(folder, name), text.replace('brown', 'red') + 'added\n');
    }
    unlinkSync(join(folder, pages[PAGES - 1]!));
    ok(await dora('sync', '--once'));

    ok(await cleo('sync', '--once'));
    const diff = JSON.parse(
      ok(await cleo('cr', 'diff', 'Review lab', String(cr.number), '--json')).stdout,
    ) as ChangeRequestDiff;
    const { data } = await t
      .client(TOKENS.cleo)
      .spaces.getChangeRequestChanges(SPACE, cr.id, { limit: 1000 });
    expect(ourChanges(diff.pages)).toEqual(serverChanges(data.changes));
    expect(diff.pages).toHaveLength(101);
    const text = ok(await cleo('cr', 'diff', 'Review lab', String(cr.number)));
    expect(text.stdout).toContain('101 pages changed.');
    expect(text.stdout).toContain('- The quick brown fox\n+ The quick red fox\n');
  });
});
