import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RevisionPage } from '@gitbook/api';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { RevisionTree, StoredPage } from '../../src/server/content/revision-tree';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../../src/server/resources/change-requests/change-request-queries';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS, contentFixture } from '../support/test-fixture';

let t: TestServer;
let store: RevisionStore;
let queries: ChangeRequestQueries;
/** A change request on s-handbook that edits p-setup, adds p-new under p-guides and a file. */
let cr: ChangeRequestRow;
let mainRevision: string;

const NOW = '2026-01-05T00:00:00.000Z';

beforeAll(async () => {
  t = await startTestServer({ fixture: contentFixture() });
  store = new RevisionStore(t.db);
  queries = new ChangeRequestQueries(t.db);
  mainRevision = liveRevision('s-handbook');
  cr = queries.create('s-handbook', 'u-dora', 'Better setup', mainRevision, NOW);
  const edited = commit('s-handbook', mainRevision, (tree) => {
    const setup = findStored(tree, 'p-setup');
    setup.body = store.putBody('# Setup\n\nInstall it, then run it.\n');
    findStored(tree, 'p-guides').pages.push(
      storedPage('p-new', 'Troubleshooting', '# Troubleshooting\n'),
    );
    tree.files.push({
      id: 'f-shot',
      name: 'screenshot.png',
      contentType: 'image/png',
      size: 4,
      blob: store.putBlob(Buffer.from('shot')),
      createdAt: NOW,
    });
  });
  queries.setRevision(cr.id, edited, NOW);
  cr = queries.find('s-handbook', cr.id)!;
});
afterAll(async () => {
  await t.close();
});

function liveRevision(spaceId: string): string {
  return (
    t.db.prepare('SELECT revision_id FROM spaces WHERE id = ?').get(spaceId) as {
      revision_id: string;
    }
  ).revision_id;
}

function storedPage(id: string, title: string, markdown: string): StoredPage {
  return {
    id,
    type: 'document',
    title,
    slug: title.toLowerCase(),
    body: store.putBody(markdown),
    createdAt: NOW,
    updatedAt: NOW,
    pages: [],
  };
}

function findStored(tree: RevisionTree, id: string): StoredPage {
  const visit = (pages: StoredPage[]): StoredPage | undefined => {
    for (const page of pages) {
      if (page.id === id) return page;
      const found = visit(page.pages);
      if (found) return found;
    }
    return undefined;
  };
  return visit(tree.pages)!;
}

/** A new revision of `spaceId` on top of `parent` (not made live). */
function commit(
  spaceId: string,
  parent: string,
  edit: (tree: RevisionTree) => void,
  parents = [parent],
  type = 'edits',
): string {
  const tree = structuredClone(store.tree(parent)!);
  edit(tree);
  return store.create(spaceId, tree, parents, type, NOW);
}

function flatten(pages: readonly RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...('pages' in page ? flatten(page.pages) : [])]);
}

describe('change request content (GET …/change-requests/{CR}/content)', () => {
  it('returns the change request’s revision, by id or by number', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const byId = await spaces.getRevisionOfChangeRequestById('s-handbook', cr.id);
    expect(byId.status).toBe(200);
    expect(byId.data).toMatchObject({
      object: 'revision',
      id: cr.revision_id,
      parents: [mainRevision],
      type: 'edits',
      reusableContents: [],
    });
    expect(byId.data.urls.app).toBe(`${t.url}/app/s/s-handbook/~/changes/${cr.number}`);
    const pages = flatten(byId.data.pages);
    expect(pages.map((page) => page.id)).toEqual(['p-welcome', 'p-guides', 'p-setup', 'p-new']);
    const setup = pages[2]!;
    expect(setup.type === 'document' && setup.urls.app).toBe(
      `${t.url}/app/s/s-handbook/~/changes/${cr.number}/guides/setup`,
    );
    expect(setup).not.toHaveProperty('markdown');
    expect(byId.data.files.map((file) => file.id)).toEqual(['f-shot']);

    const byNumber = await spaces.getRevisionOfChangeRequestById('s-handbook', String(cr.number));
    expect(byNumber.data).toEqual(byId.data);
    // Main is unchanged.
    expect((await spaces.getCurrentRevision('s-handbook')).data.id).toBe(mainRevision);
  });

  it('accepts format=markdown and then carries every page’s Markdown', async () => {
    const response = await t.request(
      'GET',
      `/v1/spaces/s-handbook/change-requests/${cr.number}/content?format=markdown&metadata=false&computed=false`,
      TOKENS.cara,
    );
    expect(response.status).toBe(200);
    const pages = flatten(((await response.json()) as { pages: RevisionPage[] }).pages);
    expect(
      Object.fromEntries(pages.map((page) => [page.id, (page as { markdown?: string }).markdown])),
    ).toEqual({
      'p-welcome': '# Welcome\n\nHello.\n',
      'p-guides': '# Guides\n',
      'p-setup': '# Setup\n\nInstall it, then run it.\n',
      'p-new': '# Troubleshooting\n',
    });
  });

  it('lists pages and files, and reads a file', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const { status, data } = await spaces.listPagesInChangeRequest('s-handbook', cr.id);
    expect(status).toBe(200);
    expect(Object.keys(data)).toEqual(['pages']);
    expect(flatten(data.pages).map((page) => page.id)).toContain('p-new');

    const files = (await spaces.listFilesInChangeRequestById('s-handbook', cr.id, { limit: 10 }))
      .data;
    expect(files).toMatchObject({
      count: 1,
      items: [{ id: 'f-shot', name: 'screenshot.png', size: 4 }],
    });
    const file = (await spaces.getFileInChangeRequestById('s-handbook', cr.id, 'f-shot')).data;
    expect(file.downloadURL).toBe(files.items[0]!.downloadURL);
    const download = await fetch(file.downloadURL);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('shot');
    expect(
      await clientFailure(spaces.getFileInChangeRequestById('s-handbook', cr.id, 'f-nope')),
    ).toBe(404);
    // The file only exists in the change request.
    expect(await clientFailure(spaces.getFileById('s-handbook', 'f-shot'))).toBe(404);
  });

  it('reads a page by id (format none, markdown, document) and by path', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const plain = (await spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-setup')).data;
    expect(plain).toMatchObject({ id: 'p-setup', path: 'guides/setup' });
    expect(plain).not.toHaveProperty('markdown');
    expect(plain).not.toHaveProperty('document');

    const markdown = (
      await spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-setup', {
        format: 'markdown',
      })
    ).data;
    expect((markdown as { markdown?: string }).markdown).toBe(
      '# Setup\n\nInstall it, then run it.\n',
    );

    const document = (
      await spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-setup', {
        format: 'document',
      })
    ).data as { document?: { object: string } };
    expect(document.document?.object).toBe('document');
    expect(JSON.stringify(document.document)).toContain('then run it');

    const byPath = (
      await spaces.getPageInChangeRequestByPath(
        's-handbook',
        String(cr.number),
        'guides/troubleshooting',
        {
          format: 'markdown',
        },
      )
    ).data;
    expect(byPath).toMatchObject({ id: 'p-new', markdown: '# Troubleshooting\n' });
    expect(
      await clientFailure(spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-nope')),
    ).toBe(404);
    expect(
      await clientFailure(spaces.getPageInChangeRequestByPath('s-handbook', cr.id, 'nope')),
    ).toBe(404);
    // Not in main.
    expect(await clientFailure(spaces.getPageByPath('s-handbook', 'guides/troubleshooting'))).toBe(
      404,
    );
  });

  it('answers 404 for unknown change requests, those of another space, another organization and guests', async () => {
    const other = queries.create('s-api', 'u-ada', 'Elsewhere', liveRevision('s-api'), NOW);
    const spaces = t.client(TOKENS.ada).spaces;
    expect(
      await clientFailure(spaces.getRevisionOfChangeRequestById('s-handbook', 'cr-nope')),
    ).toBe(404);
    expect(await clientFailure(spaces.getRevisionOfChangeRequestById('s-handbook', '999'))).toBe(
      404,
    );
    expect(await clientFailure(spaces.getRevisionOfChangeRequestById('s-handbook', other.id))).toBe(
      404,
    );
    expect(await clientFailure(spaces.listPagesInChangeRequest('s-handbook', other.id))).toBe(404);
    expect(await clientFailure(spaces.getChangeRequestChanges('s-handbook', other.id))).toBe(404);
    expect((await spaces.getRevisionOfChangeRequestById('s-api', other.id)).status).toBe(200);

    const eve = t.client(TOKENS.eve).spaces;
    expect(await clientFailure(eve.getRevisionOfChangeRequestById('s-handbook', cr.id))).toBe(404);
    expect(
      await clientFailure(eve.getPageInChangeRequestById('s-handbook', cr.id, 'p-setup')),
    ).toBe(404);
    const gus = t.client(TOKENS.gus).spaces;
    expect(await clientFailure(gus.getRevisionOfChangeRequestById('s-api', other.id))).toBe(404);
    expect((await gus.getRevisionOfChangeRequestById('s-handbook', cr.id)).status).toBe(200);

    for (const suffix of [
      'content',
      'content/pages',
      'content/files',
      'content/page/p-setup',
      'changes',
    ]) {
      await expectError(
        await t.request('GET', `/v1/spaces/s-handbook/change-requests/${cr.id}/${suffix}`, null),
        401,
      );
    }
    expect(
      await expectError(
        await t.request(
          'GET',
          `/v1/spaces/s-handbook/change-requests/${cr.id}/content/files?limit=0`,
          TOKENS.ada,
        ),
        400,
      ),
    ).toMatch(/limit/);
  });
});

describe('change request changes (GET …/change-requests/{CR}/changes)', () => {
  it('diffs the change request against its base', async () => {
    const { status, data } = await t
      .client(TOKENS.cara)
      .spaces.getChangeRequestChanges('s-handbook', cr.id);
    expect(status).toBe(200);
    expect(data.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'p-setup', type: 'document', title: 'Setup', path: 'guides/setup' },
        attributes: { document: { before: expect.any(String), after: expect.any(String) } },
      },
      {
        type: 'page_created',
        page: {
          id: 'p-new',
          type: 'document',
          title: 'Troubleshooting',
          path: 'guides/troubleshooting',
        },
      },
      {
        type: 'file_created',
        file: {
          id: 'f-shot',
          name: 'screenshot.png',
          contentType: 'image/png',
          downloadURL: expect.stringContaining('/v1/files/s-handbook/f-shot/'),
        },
      },
    ]);
    expect(data.more).toBeUndefined();
    const limited = (
      await t
        .client(TOKENS.cara)
        .spaces.getChangeRequestChanges('s-handbook', String(cr.number), { limit: 2 })
    ).data;
    expect(limited.changes.map((change) => change.type)).toEqual(['page_edited', 'page_created']);
    expect(limited.more).toBe(1);
  });

  it('after an update, diffs against the main revision it took in', async () => {
    // Main moves on (a new page), then the change request is updated onto it.
    const w = queries.create('s-handbook', 'u-dora', 'Second', mainRevision, NOW);
    const newMain = commit('s-handbook', mainRevision, (tree) => {
      tree.pages.push(storedPage('p-main-only', 'Changelog', '# Changelog\n'));
    });
    const crHead = commit(
      's-handbook',
      newMain,
      (tree) => {
        findStored(tree, 'p-welcome').title = 'Hi';
      },
      [newMain],
    );
    queries.setUpdated(w.id, crHead, newMain, NOW);
    const { data } = await t.client(TOKENS.cara).spaces.getChangeRequestChanges('s-handbook', w.id);
    // The page main added is not the change request's change.
    expect(data.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'p-welcome', type: 'document', title: 'Hi', path: 'welcome' },
        attributes: { title: { before: 'Welcome', after: 'Hi' } },
      },
    ]);
  });

  it('shows the merged change request on a merge revision', async () => {
    const merged = queries.create('s-handbook', 'u-dora', 'To merge', mainRevision, NOW);
    const head = commit('s-handbook', mainRevision, (tree) => {
      findStored(tree, 'p-guides').title = 'All guides';
    });
    queries.setRevision(merged.id, head, NOW);
    const mergeRevision = commit(
      's-handbook',
      head,
      () => undefined,
      [mainRevision, head],
      'merge',
    );
    queries.setMerged(merged.id, mergeRevision, 'u-ada', NOW);

    const spaces = t.client(TOKENS.cara).spaces;
    const revision = (await spaces.getRevisionById('s-handbook', mergeRevision)).data;
    expect(revision).toMatchObject({
      type: 'merge',
      parents: [mainRevision, head],
      mergedFrom: { object: 'change-request', id: merged.id, status: 'merged' },
    });
    const changes = (await spaces.getRevisionSemanticChanges('s-handbook', mergeRevision)).data;
    expect(changes.mergedFrom?.id).toBe(merged.id);
    expect(changes.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'p-guides', type: 'document', title: 'All guides', path: 'guides' },
        attributes: { title: { before: 'Guides', after: 'All guides' } },
      },
    ]);

    // The change request can change after the merge; a (cached) revision read shows it as it is now.
    queries.update(merged.id, { subject: 'Merged subject' }, NOW);
    const again = (await spaces.getRevisionById('s-handbook', mergeRevision)).data as {
      mergedFrom?: { subject: string };
    };
    expect(again.mergedFrom?.subject).toBe('Merged subject');
  });
});
