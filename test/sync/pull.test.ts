import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, PNG_BASE64, TOKENS } from '../support/test-fixture';
import {
  engineFor,
  fileStamps,
  readTree,
  remoteEdit,
  treeAsText,
  type EngineKit,
} from './sync-test-kit';

/**
 * The pull side against the real server on loopback: `contentFixture()` (Acme's Handbook, API
 * Reference, Board notes and Media, a space with files and every page type) plus a Handbook page
 * with frontmatter fields.
 */
function pullFixture(): Fixture {
  const fixture = contentFixture();
  const handbook = fixture.organizations[0]!.spaces!.find((space) => space.id === 's-handbook')!;
  handbook.pages!.push({
    id: 'p-faq',
    title: 'FAQ',
    description: 'Answers to common questions',
    hidden: true,
    markdown: '# FAQ\n\nAsk away.\n',
  });
  return fixture;
}

/**
 * What Git Sync would write for the fixture, from GitBook's Git Sync format (see
 * /work/shared/reference/gitsync-format.md and GitBook's own synced docs): `README.md` is the first
 * page, a page with children is `<slug>/README.md`, a group is a folder and a `##` heading, top-level
 * pages after a group follow `***`, frontmatter precedes `# Title`, assets live in
 * `.gitbook/assets/` and references to pages and files are relative paths. Written by hand, not
 * produced by the renderer. Each space sits in `<organization>/<space>/`.
 */
const EXPECTED: Record<string, string> = {
  'Acme/API Reference/SUMMARY.md': '# Table of contents\n',
  'Acme/Board notes/SUMMARY.md': '# Table of contents\n',
  'Acme/Handbook/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '* [Guides](guides/README.md)',
    '  * [Setup](guides/setup.md)',
    '* [FAQ](faq.md)',
    '',
  ].join('\n'),
  'Acme/Handbook/README.md': '# Welcome\n\nHello.\n',
  'Acme/Handbook/guides/README.md': '# Guides\n',
  'Acme/Handbook/guides/setup.md': '# Setup\n\nInstall it.\n',
  'Acme/Handbook/faq.md': [
    '---',
    'description: Answers to common questions',
    'hidden: true',
    '---',
    '',
    '# FAQ',
    '',
    'Ask away.',
    '',
  ].join('\n'),
  'Acme/Media/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Home](README.md)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '',
    '***',
    '',
    '* [Website](https://example.com/)',
    '',
  ].join('\n'),
  'Acme/Media/README.md': '# Home\n\n![Diagram](.gitbook/assets/diagram.png)\n',
  // The first page is linked by the space's folder, as Git Sync writes it (`./` beside it).
  'Acme/Media/reference/api.md': '# API\n\nSee [home](../).\n',
  'Acme/Media/.gitbook/assets/diagram.png': `base64:${PNG_BASE64}`,
  // `"` cannot appear in a Windows file name: the mirror's safe name replaces it.
  'Acme/Media/.gitbook/assets/Relevé -final- v2.pdf': '%PDF-1.4\n% not really\n',
};

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

let t: TestServer;
let kit: EngineKit;
let serverRequests: string[];

beforeEach(async () => {
  serverRequests = [];
  t = await startTestServer({
    fixture: pullFixture(),
    onRequest: (request) => serverRequests.push(`${request.method} ${request.url.split('?')[0]}`),
  });
  kit = engineFor(t);
});
afterEach(async () => {
  kit.close();
  await t.close();
});

describe('pull', () => {
  it('mirrors the workspace into <organization>/<space>/ byte for byte', async () => {
    const report = await kit.engine.syncOnce();
    expect(report.errors).toEqual([]);
    expect(report.spaces.map((space) => space.error)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(sorted(treeAsText(readTree(kit.folder)))).toEqual(sorted(EXPECTED));
    // Nothing but the mirror in the folder: the cache lives in the home directory.
    expect(existsSync(join(kit.home, 'cache.db'))).toBe(true);
    expect([...readTree(kit.folder).keys()].filter((path) => !path.startsWith('Acme/'))).toEqual(
      [],
    );
    expect(report.filesWritten).toBe(Object.keys(EXPECTED).length);

    const phases = new Set(kit.progress.map((event) => event.phase));
    expect([...phases]).toEqual(['listing', 'fetching', 'writing', 'done']);
    const writing = kit.progress.filter(
      (event) => event.phase === 'writing' && event.space === 's-media',
    );
    expect(writing.at(-1)).toEqual({ phase: 'writing', space: 's-media', done: 5, total: 5 });
  });

  it('a second sync writes nothing and costs the organization list plus one request per organization', async () => {
    await kit.engine.syncOnce();
    const before = fileStamps(kit.folder);
    serverRequests.length = 0;
    kit.clientRequests.length = 0;

    const report = await kit.engine.syncOnce();

    expect(report.filesWritten).toBe(0);
    expect(report.spaces).toEqual([]);
    expect(fileStamps(kit.folder)).toEqual(before);
    // Ada belongs to one organization: 2 requests, counted at the server and at the client.
    expect(serverRequests).toEqual(['GET /v1/orgs', 'GET /v1/orgs/o-acme/spaces']);
    expect(kit.clientRequests).toEqual(['GET /v1/orgs', 'GET /v1/orgs/o-acme/spaces']);
  });

  it('reads a space whose revision moved in one request and rewrites only the changed file', async () => {
    await kit.engine.syncOnce();
    const before = fileStamps(kit.folder);
    await remoteEdit(t, 's-handbook', [
      { operation: 'update_page', page: 'p-setup', document: { markdown: '# Setup\n\nRun it.\n' } },
    ]);
    serverRequests.length = 0;

    const report = await kit.engine.syncOnce();

    expect(report.spaces.map((space) => [space.spaceId, space.written, space.removed])).toEqual([
      ['s-handbook', ['guides/setup.md'], []],
    ]);
    expect(readFileSync(join(kit.folder, 'Acme/Handbook/guides/setup.md'), 'utf8')).toBe(
      '# Setup\n\nRun it.\n',
    );
    const after = fileStamps(kit.folder);
    for (const [path, stamp] of before) {
      if (path !== 'Acme/Handbook/guides/setup.md') expect(after.get(path), path).toBe(stamp);
    }
    expect(serverRequests).toEqual([
      'GET /v1/orgs',
      'GET /v1/orgs/o-acme/spaces',
      expect.stringMatching(/^GET \/v1\/spaces\/s-handbook\/revisions\/[^/]+$/),
      // The space's .gitbook.yaml (Quire extension), read once per pull of the space.
      'GET /v1/spaces/s-handbook/git/config',
    ]);
  });

  it('removes the files of a page deleted remotely, and its emptied folder', async () => {
    await kit.engine.syncOnce();
    await remoteEdit(t, 's-handbook', [{ operation: 'delete_page', page: 'p-setup' }]);

    const report = await kit.engine.syncOnce();

    // Guides lost its only child: Git Sync writes it as guides.md, no longer guides/README.md.
    const handbook = report.spaces.find((space) => space.spaceId === 's-handbook')!;
    expect(handbook.removed.sort()).toEqual(['guides/README.md', 'guides/setup.md']);
    expect(handbook.written.sort()).toEqual(['SUMMARY.md', 'guides.md']);
    expect(handbook.problems).toEqual([]);
    expect(existsSync(join(kit.folder, 'Acme/Handbook/guides'))).toBe(false);
    expect(readFileSync(join(kit.folder, 'Acme/Handbook/guides.md'), 'utf8')).toBe('# Guides\n');
  });

  it('keeps and reports a file edited locally whose page was deleted remotely', async () => {
    await kit.engine.syncOnce();
    const api = join(kit.folder, 'Acme/Media/reference/api.md');
    writeFileSync(api, '# API\n\nMy local notes.\n');
    await remoteEdit(t, 's-media', [{ operation: 'delete_page', page: 'p-media-api' }]);

    const report = await kit.engine.syncOnce();

    const media = report.spaces.find((space) => space.spaceId === 's-media')!;
    expect(media.error).toBeUndefined();
    expect(media.removed).toEqual([]);
    expect(media.problems).toEqual([
      expect.objectContaining({
        kind: 'kept-deleted',
        path: 'reference/api.md',
        pageId: 'p-media-api',
      }),
    ]);
    expect(readFileSync(api, 'utf8')).toBe('# API\n\nMy local notes.\n');
    const status = kit.engine.status().find((space) => space.id === 's-media')!;
    expect(status.state).toBe('synced');
    expect(status.errors).toEqual([expect.stringContaining('reference/api.md')]);
  });

  it('keeps a local edit when the page is unchanged remotely, and reports a conflict when both changed', async () => {
    await kit.engine.syncOnce();
    const welcome = join(kit.folder, 'Acme/Handbook/README.md');
    const setup = join(kit.folder, 'Acme/Handbook/guides/setup.md');
    writeFileSync(welcome, '# Welcome\n\nEdited here.\n');
    writeFileSync(setup, '# Setup\n\nEdited here too.\n');
    await remoteEdit(t, 's-handbook', [
      { operation: 'update_page', page: 'p-setup', document: { markdown: '# Setup\n\nRun it.\n' } },
    ]);

    const report = await kit.engine.syncOnce();

    const handbook = report.spaces.find((space) => space.spaceId === 's-handbook')!;
    expect(handbook.written).toEqual([]);
    expect(handbook.problems).toEqual([
      expect.objectContaining({ kind: 'conflict', path: 'guides/setup.md', pageId: 'p-setup' }),
    ]);
    expect(readFileSync(welcome, 'utf8')).toBe('# Welcome\n\nEdited here.\n');
    expect(readFileSync(setup, 'utf8')).toBe('# Setup\n\nEdited here too.\n');
  });

  it('removes the folder of a space deleted remotely, keeping and reporting edited files', async () => {
    await kit.engine.syncOnce();
    writeFileSync(join(kit.folder, 'Acme/Media/README.md'), '# Home\n\nMine.\n');
    for (const id of ['s-media', 's-secret']) {
      const deleted = await t.request('DELETE', `/v1/spaces/${id}`, TOKENS.ada);
      expect(deleted.ok).toBe(true);
    }

    const report = await kit.engine.syncOnce();

    expect(existsSync(join(kit.folder, 'Acme/Board notes'))).toBe(false);
    expect([...readTree(join(kit.folder, 'Acme/Media')).keys()]).toEqual(['README.md']);
    const media = report.spaces.find((space) => space.spaceId === 's-media')!;
    expect(media.removedSpace).toBe(true);
    expect(media.problems).toEqual([
      expect.objectContaining({ kind: 'kept-deleted', path: 'README.md' }),
    ]);
    // A removed space stays in the status only while it has kept files to report.
    const status = kit.engine.status();
    expect(status.map((space) => [space.id, space.state]).sort()).toEqual([
      ['s-api', 'synced'],
      ['s-handbook', 'synced'],
      ['s-media', 'removed'],
    ]);
  });

  it('selective sync: a disabled space is not read; a new space appears disabled', async () => {
    await kit.engine.refreshSpaces();
    // Four spaces, fewer than 20: the first listing enabled them all.
    expect(
      kit.engine
        .status()
        .map((space) => [space.id, space.enabled])
        .sort(),
    ).toEqual([
      ['s-api', true],
      ['s-handbook', true],
      ['s-media', true],
      ['s-secret', true],
    ]);
    kit.engine.setSpaceEnabled('s-media', false);
    kit.engine.setSpaceEnabled('s-secret', false);
    await kit.engine.syncOnce();
    expect(existsSync(join(kit.folder, 'Acme/Media'))).toBe(false);
    expect(existsSync(join(kit.folder, 'Acme/Handbook/README.md'))).toBe(true);

    const created = await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, {
      title: 'Newcomer',
    });
    expect(created.status).toBe(201);
    serverRequests.length = 0;
    await kit.engine.syncOnce();
    expect(serverRequests).toEqual(['GET /v1/orgs', 'GET /v1/orgs/o-acme/spaces']);
    const newcomer = kit.engine.status().find((space) => space.title === 'Newcomer')!;
    expect(newcomer).toMatchObject({ enabled: false, state: 'disabled', revision: null });

    kit.engine.setSpaceEnabled('s-media', true);
    const report = await kit.engine.syncOnce();
    expect(report.spaces.map((space) => space.spaceId)).toEqual(['s-media']);
    expect(readFileSync(join(kit.folder, 'Acme/Media/README.md'), 'utf8')).toBe(
      EXPECTED['Acme/Media/README.md'],
    );
  });

  it('keeps the folder chosen for a space when the space is retitled', async () => {
    await kit.engine.syncOnce();
    const patched = await t.request('PATCH', '/v1/spaces/s-handbook', TOKENS.ada, {
      title: 'Staff handbook',
    });
    expect(patched.status).toBe(200);
    await remoteEdit(t, 's-handbook', [
      { operation: 'update_page', page: 'p-setup', document: { markdown: '# Setup\n\nRun it.\n' } },
    ]);
    await kit.engine.syncOnce();
    expect(existsSync(join(kit.folder, 'Acme/Staff handbook'))).toBe(false);
    expect(readFileSync(join(kit.folder, 'Acme/Handbook/guides/setup.md'), 'utf8')).toBe(
      '# Setup\n\nRun it.\n',
    );
    const status = kit.engine.status().find((space) => space.id === 's-handbook')!;
    expect(status).toMatchObject({ title: 'Staff handbook', folder: 'Acme/Handbook' });
  });

  it('reports per space: state, revision, pages, last sync and errors', async () => {
    const before = kit.engine.status();
    expect(before).toEqual([]);
    await kit.engine.syncOnce();
    const status = kit.engine.status();
    const { data: media } = await t.client(TOKENS.ada).spaces.getSpaceById('s-media');
    expect(status.find((space) => space.id === 's-media')).toEqual({
      id: 's-media',
      organizationId: 'o-acme',
      organization: 'Acme',
      title: 'Media',
      folder: 'Acme/Media',
      enabled: true,
      state: 'synced',
      revision: media.revision,
      remoteRevision: media.revision,
      pages: 4,
      lastSync: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      errors: [],
      problems: [],
      conflicts: 0,
    });
    // JSON-serialisable as is, for `quire status --json`.
    expect(JSON.parse(JSON.stringify(status))).toEqual(status);
  });
});
