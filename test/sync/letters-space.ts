import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import type { RemotePage } from '../../src/main/sync-ports';
import type { Fixture, FixturePage } from '../../src/server/fixture/fixture-schema';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import { pushEngineFor, TEST_DEVICE, type EngineKit } from './sync-test-kit';

/**
 * A one-space workspace for push regression tests (each found by sync-model.property.test.ts):
 * Ada, admin of "Letters", whose space "Letters" (s-letters, mirrored at Letters/Letters) holds
 * the given pages.
 */
export const LETTERS_SPACE = 's-letters';
export const LETTERS_FOLDER = ['Letters', 'Letters'] as const;

export const HOME: FixturePage = { id: 'p-home', title: 'Home', markdown: '# Home\n\nWelcome.\n' };
export const ALPHA: FixturePage = {
  id: 'p-alpha',
  title: 'Alpha',
  markdown: '# Alpha\n\nFirst letter.\n',
};
export const BETA: FixturePage = {
  id: 'p-beta',
  title: 'Beta',
  markdown: '# Beta\n\nSecond letter.\n',
};

export function lettersFixture(pages: FixturePage[] = [HOME, ALPHA, BETA]): Fixture {
  return {
    users: [{ id: 'u-ada', displayName: 'Ada', email: 'ada@letters.test', tokens: [TOKENS.ada] }],
    organizations: [
      {
        id: 'o-letters',
        title: 'Letters',
        members: [{ user: 'u-ada', role: 'admin' }],
        spaces: [{ id: LETTERS_SPACE, title: 'Letters', pages }],
      },
    ],
  };
}

/** Writes a file as the user would, creating folders on the way. */
export function writeAt(root: string, relative: string, text: string): void {
  mkdirSync(dirname(join(root, relative)), { recursive: true });
  writeFileSync(join(root, relative), text);
}

/** The draft "Edits from <TEST_DEVICE>" of the space, if there is one. */
export async function workingChangeRequest(
  t: TestServer,
): Promise<{ id: string; revision: string } | undefined> {
  const { data } = await t.client(TOKENS.ada).spaces.listChangeRequestsForSpace(LETTERS_SPACE, {
    status: ChangeRequestStatus.Draft,
  });
  const items = data.items as { id: string; revision: string; subject?: string }[];
  return items.find((cr) => cr.subject === `Edits from ${TEST_DEVICE}`);
}

/**
 * A revision of the space (main's when none is given): its pages as a nested outline of titles
 * (a page with children is `{ title: [children] }`) and each page's Markdown by title.
 */
export async function lettersRevision(
  t: TestServer,
  revisionId?: string,
): Promise<{ outline: unknown[]; markdown: Map<string, string> }> {
  const { data: space } = await t.client(TOKENS.ada).spaces.getSpaceById(LETTERS_SPACE);
  const client = new WorkspaceClient({ endpoint: t.url, token: TOKENS.ada });
  const { pages } = await client.getRevision(
    LETTERS_SPACE,
    revisionId ?? (space as { revision: string }).revision,
  );
  const markdown = new Map<string, string>();
  const shape = (list: readonly RemotePage[]): unknown[] =>
    list.map((page) => {
      markdown.set(page.title, page.markdown ?? '');
      return page.pages.length ? { [page.title]: shape(page.pages) } : page.title;
    });
  return { outline: shape(pages), markdown };
}

export interface LettersKit {
  t: TestServer;
  kit: EngineKit;
  /** The space's folder. */
  root: string;
  close(): Promise<void>;
}

/** A server with the Letters workspace and a pushing engine that has synced it once. */
export async function openLetters(pages?: FixturePage[]): Promise<LettersKit> {
  const t = await startTestServer({ fixture: lettersFixture(pages) });
  const kit = pushEngineFor(t);
  const first = await kit.engine.syncOnce();
  if (first.errors.length > 0) throw new Error(`first sync failed: ${first.errors.join('; ')}`);
  return {
    t,
    kit,
    root: join(kit.folder, ...LETTERS_FOLDER),
    close: async () => {
      kit.close();
      await t.close();
    },
  };
}
