import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceSyncReport } from '../../src/main/sync/sync-engine';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, remoteEdit, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * The push side against the real server: local edits of Acme's Handbook (README.md,
 * guides/README.md, guides/setup.md) go into the space's working change request.
 */
const SPACE = 's-handbook';

let t: TestServer;
let kit: EngineKit;
let root: string;

beforeEach(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  kit = pushEngineFor(t);
  const first = await kit.engine.syncOnce();
  expect(first.errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
  expect(existsSync(join(root, 'guides/setup.md'))).toBe(true);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const api = () => t.client(TOKENS.ada).spaces;

/** The space's open working change request, if Quire made one. */
async function workingChangeRequest(
  spaceId: string = SPACE,
): Promise<{ id: string; subject?: string } | undefined> {
  const { data } = await api().listChangeRequestsForSpace(spaceId, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  return items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`);
}

async function crPages(crId: string): Promise<{ id: string; title: string }[]> {
  const { data } = await api().listPagesInChangeRequest(SPACE, crId);
  type Node = { id: string; title: string; pages?: Node[] };
  const flat = (pages: Node[]): Node[] =>
    pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);
  return flat(data.pages as Node[]);
}

async function crMarkdown(
  crId: string,
  pageId: string,
  spaceId: string = SPACE,
): Promise<string | undefined> {
  const { data } = await api().getPageInChangeRequestById(spaceId, crId, pageId, {
    format: 'markdown',
  });
  return (data as { markdown?: string }).markdown;
}

function handbookReport(reports: readonly SpaceSyncReport[]): SpaceSyncReport | undefined {
  return reports.find((report) => report.spaceId === SPACE);
}

describe('push', () => {
  it('pushes an edited page into the working change request, once', async () => {
    writeFileSync(join(root, 'guides/setup.md'), '# Setup\n\nInstall it, then run it.\n');

    const report = await kit.engine.syncOnce();

    const handbook = handbookReport(report.spaces);
    expect(handbook?.problems).toEqual([]);
    expect(handbook?.pushed).toBe(1);
    const cr = await workingChangeRequest();
    expect(cr).toBeDefined();
    expect(await crMarkdown(cr!.id, 'p-setup')).toContain('Install it, then run it.');
    // The local file is kept (the edit is not merged into the space's main content).
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain('then run it');

    const again = await kit.engine.syncOnce();
    const second = handbookReport(again.spaces);
    expect(second?.queued ?? 0).toBe(0);
    expect(second?.pushed ?? 0).toBe(0);
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toContain('then run it');
  });

  it('inserts a new Markdown file as a page', async () => {
    writeFileSync(join(root, 'guides/faq.md'), '# FAQ\n\nAsk away.\n');

    const report = await kit.engine.syncOnce();

    expect(handbookReport(report.spaces)?.problems).toEqual([]);
    const cr = await workingChangeRequest();
    const pages = await crPages(cr!.id);
    const faq = pages.find((page) => page.title === 'FAQ');
    expect(faq).toBeDefined();
    expect(await crMarkdown(cr!.id, faq!.id)).toContain('Ask away.');

    const again = await kit.engine.syncOnce();
    expect(handbookReport(again.spaces)?.queued ?? 0).toBe(0);
    expect((await crPages(cr!.id)).filter((page) => page.title === 'FAQ')).toHaveLength(1);
  });

  it('deletes the page of a deleted file', async () => {
    rmSync(join(root, 'guides/setup.md'));

    const report = await kit.engine.syncOnce();

    expect(handbookReport(report.spaces)?.problems).toEqual([]);
    const cr = await workingChangeRequest();
    const ids = (await crPages(cr!.id)).map((page) => page.id);
    expect(ids).not.toContain('p-setup');
    expect(ids).toContain('p-welcome');
    // The next pull does not bring the file back while the deletion waits in the change request.
    await kit.engine.syncOnce();
    expect(existsSync(join(root, 'guides/setup.md'))).toBe(false);
  });

  it('reports invalid frontmatter and pushes nothing', async () => {
    const bad = '---\ntitle: [unclosed\n---\n\n# Setup\n\nBroken.\n';
    writeFileSync(join(root, 'guides/setup.md'), bad);

    const report = await kit.engine.syncOnce();

    const handbook = handbookReport(report.spaces);
    expect(handbook?.problems.map((problem) => problem.path)).toContain('guides/setup.md');
    expect(handbook?.pushed ?? 0).toBe(0);
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toBe(bad);
    expect(await workingChangeRequest()).toBeUndefined();
    expect(kit.engine.status().find((space) => space.id === SPACE)?.problems).not.toEqual([]);
  });

  it('holds back a mass deletion until confirm-deletes', async () => {
    rmSync(join(root, 'guides'), { recursive: true });
    rmSync(join(root, 'README.md'));

    const blocked = await kit.engine.syncOnce();

    const handbook = handbookReport(blocked.spaces);
    expect(handbook?.problems.map((problem) => problem.kind)).toContain('push-blocked');
    expect(handbook?.pushed ?? 0).toBe(0);
    expect(await workingChangeRequest()).toBeUndefined();

    kit.engine.confirmDeletes(SPACE);
    const confirmed = await kit.engine.syncOnce();

    expect(handbookReport(confirmed.spaces)?.problems).toEqual([]);
    const cr = await workingChangeRequest();
    const ids = (await crPages(cr!.id)).map((page) => page.id);
    expect(ids).not.toContain('p-setup');
    expect(ids).not.toContain('p-welcome');
    expect(kit.engine.status().find((space) => space.id === SPACE)?.problems).toEqual([]);
  });

  it('keeps pushed edits through a pull of the main revision, and settles them once merged', async () => {
    const edited = '# Setup\n\nInstall it, then run it.\n';
    writeFileSync(join(root, 'guides/setup.md'), edited);
    await kit.engine.syncOnce();
    const cr = await workingChangeRequest();

    // Main moves for another reason: the pushed, unmerged edit is a local edit to keep.
    await remoteEdit(t, SPACE, [
      { operation: 'update_page', page: 'p-welcome', document: { markdown: '# Welcome\n\nHi.\n' } },
    ]);
    const pulled = await kit.engine.syncOnce();
    expect(handbookReport(pulled.spaces)?.pulled).toBe(true);
    expect(handbookReport(pulled.spaces)?.problems).toEqual([]);
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toBe(edited);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('Hi.');

    // Merged: the pull sees the pushed bytes as synced, and nothing is pushed again.
    await api().mergeChangeRequest(SPACE, cr!.id);
    const merged = await kit.engine.syncOnce();
    const handbook = handbookReport(merged.spaces);
    expect(handbook?.problems).toEqual([]);
    expect(handbook?.queued ?? 0).toBe(0);
    expect(readFileSync(join(root, 'guides/setup.md'), 'utf8')).toBe(edited);
    const rows = kit.cache.prepare('SELECT count(*) AS n FROM local_edits').get() as { n: number };
    expect(rows.n).toBe(0);
  });

  it('sends references to uploads and pages in the server form', async () => {
    const media = join(kit.folder, 'Acme', 'Media');
    const home = readFileSync(join(media, 'README.md'), 'utf8');
    expect(home).toContain('](.gitbook/assets/diagram.png)');
    writeFileSync(join(media, 'README.md'), `${home}\nMore.\n`);
    const apiPage = readFileSync(join(media, 'reference/api.md'), 'utf8');
    // The root page is linked by its folder, as Git Sync writes it; pushed, `../` is its reference.
    expect(apiPage).toContain('](../)');
    writeFileSync(join(media, 'reference/api.md'), `${apiPage}\nMore.\n`);

    const report = await kit.engine.syncOnce();

    expect(report.spaces.find((space) => space.spaceId === 's-media')?.problems).toEqual([]);
    const cr = await workingChangeRequest('s-media');
    expect(await crMarkdown(cr!.id, 'p-media-home', 's-media')).toContain('](/files/f-diagram)');
    expect(await crMarkdown(cr!.id, 'p-media-api', 's-media')).toContain('](/pages/p-media-home)');
    expect(readFileSync(join(media, 'README.md'), 'utf8')).toContain('](.gitbook/assets/');
  });

  it('writes the server’s normalised Markdown back without pushing it again', async () => {
    writeFileSync(join(root, 'guides/a.md'), '# A\n');
    writeFileSync(join(root, 'guides/b.md'), '# B\n\nSee [A](a.md) and [Setup](<./setup.md>).\n');

    const report = await kit.engine.syncOnce();

    expect(handbookReport(report.spaces)?.problems).toEqual([]);
    const cr = await workingChangeRequest();
    const b = (await crPages(cr!.id)).find((page) => page.title === 'B')!;
    expect(await crMarkdown(cr!.id, b.id)).toContain('](/pages/p-setup)');
    // The stored links are written back as the pull writes them: in the form they were written
    // in (`./setup.md` stays), without the angle brackets the destination does not need.
    expect(readFileSync(join(root, 'guides/b.md'), 'utf8')).toBe(
      '# B\n\nSee [A](a.md) and [Setup](./setup.md).\n',
    );
    expect(handbookReport(report.spaces)?.written).toEqual(['guides/b.md']);
    const again = await kit.engine.syncOnce();
    expect(handbookReport(again.spaces)?.queued ?? 0).toBe(0);
  });
});
