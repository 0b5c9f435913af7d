import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { pushEngineFor, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * What a push creates on the server (a page, an uploaded file) is known by its server id from then
 * on, before any pull: a page created by a push and edited again is updated (never inserted twice),
 * and an uploaded file is referenced as `/files/<id>` by pages pushed after it.
 */
const SPACE = 's-handbook';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let t: TestServer;
let kit: EngineKit;
let root: string;
let requests: string[];

beforeEach(async () => {
  requests = [];
  t = await startTestServer({
    fixture: contentFixture(),
    onRequest: (request) => requests.push(`${request.method} ${request.url.split('?')[0]}`),
  });
  kit = pushEngineFor(t);
  expect((await kit.engine.syncOnce()).errors).toEqual([]);
  root = join(kit.folder, 'Acme', 'Handbook');
});
afterEach(async () => {
  kit.close();
  await t.close();
});

const api = () => t.client(TOKENS.ada).spaces;

async function workingChangeRequestId(): Promise<string> {
  const { data } = await api().listChangeRequestsForSpace(SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; subject?: string }[];
  const cr = items.find((item) => item.subject === `Edits from ${TEST_DEVICE}`);
  expect(cr).toBeDefined();
  return cr!.id;
}

type Node = { id: string; title: string; pages?: Node[] };

async function crPages(crId: string): Promise<Node[]> {
  const { data } = await api().listPagesInChangeRequest(SPACE, crId);
  const flat = (pages: Node[]): Node[] =>
    pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);
  return flat(data.pages as Node[]);
}

async function crMarkdown(crId: string, pageId: string): Promise<string> {
  const { data } = await api().getPageInChangeRequestById(SPACE, crId, pageId, {
    format: 'markdown',
  });
  return (data as { markdown?: string }).markdown ?? '';
}

describe('push gaps', () => {
  it('a page created by a push and edited before the next pull is updated, not inserted again', async () => {
    writeFileSync(join(root, 'notes.md'), '# Notes\n\nFirst version.\n');
    const first = await kit.engine.pushOnce();
    expect(first.spaces.find((s) => s.spaceId === SPACE)?.pushed).toBe(1);
    const crId = await workingChangeRequestId();
    const created = (await crPages(crId)).filter((page) => page.title === 'Notes');
    expect(created).toHaveLength(1);

    writeFileSync(join(root, 'notes.md'), '# Notes\n\nSecond version.\n');
    const second = await kit.engine.pushOnce();
    expect(second.spaces.find((s) => s.spaceId === SPACE)?.problems.map((p) => p.message)).toEqual(
      [],
    );
    const pages = (await crPages(crId)).filter((page) => page.title === 'Notes');
    expect(pages.map((page) => page.id)).toEqual([created[0]!.id]);
    expect(await crMarkdown(crId, created[0]!.id)).toContain('Second version.');

    // A full sync (push, then pull of the unchanged main revision) keeps it that way.
    writeFileSync(join(root, 'notes.md'), '# Notes\n\nThird version.\n');
    await kit.engine.syncOnce();
    const after = (await crPages(crId)).filter((page) => page.title === 'Notes');
    expect(after.map((page) => page.id)).toEqual([created[0]!.id]);
    expect(await crMarkdown(crId, created[0]!.id)).toContain('Third version.');
  });

  it('a page created by a push and deleted before the next pull is deleted on the server', async () => {
    mkdirSync(join(root, 'guides'), { recursive: true });
    writeFileSync(join(root, 'guides', 'extra.md'), '# Extra\n\nSoon gone.\n');
    await kit.engine.pushOnce();
    const crId = await workingChangeRequestId();
    const created = (await crPages(crId)).find((page) => page.title === 'Extra');
    expect(created).toBeDefined();

    rmSync(join(root, 'guides', 'extra.md'));
    const removal = await kit.engine.pushOnce();
    const handbook = removal.spaces.find((s) => s.spaceId === SPACE);
    expect(handbook?.problems.map((problem) => problem.message)).toEqual([]);
    expect(handbook?.pushed).toBe(1);
    expect((await crPages(crId)).map((page) => page.id)).not.toContain(created!.id);
  });

  it('an uploaded file is known by its server id: pages pushed later reference /files/<id>', async () => {
    mkdirSync(join(root, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(root, '.gitbook', 'assets', 'dot.png'), PNG);
    const upload = await kit.engine.pushOnce();
    expect(upload.spaces.find((s) => s.spaceId === SPACE)?.problems).toEqual([]);
    expect(upload.spaces.find((s) => s.spaceId === SPACE)?.pushed).toBe(1);
    const fileId = kit.cache
      .prepare(
        "SELECT file_id FROM local_edits WHERE space_id = ? AND path = '.gitbook/assets/dot.png'",
      )
      .pluck()
      .get(SPACE) as string | null;
    expect(fileId).toEqual(expect.any(String));

    // Nothing changed: the next push sends nothing at all.
    requests.length = 0;
    await kit.engine.pushOnce();
    expect(requests).toEqual([]);

    writeFileSync(
      join(root, 'guides', 'setup.md'),
      '# Setup\n\nInstall it.\n\n![A dot](../.gitbook/assets/dot.png)\n',
    );
    const page = await kit.engine.pushOnce();
    expect(page.spaces.find((s) => s.spaceId === SPACE)?.problems).toEqual([]);
    const crId = await workingChangeRequestId();
    const markdown = await crMarkdown(crId, 'p-setup');
    expect(markdown).toContain(`/files/${fileId}`);
    expect(markdown).not.toContain('.gitbook/assets');
  });
});
