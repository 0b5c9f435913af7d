/**
 * GitBook's public documentation (../shared/corpus/gitbook-public-docs, as Git Sync wrote it)
 * through `quire import --merge` and a fresh `quire sync --once`: every space folder comes back
 * with the same files, byte for byte. The corpus holds no binary assets; the ones ASSETS.tsv
 * lists are stood in for by small files. Skips (one line from vitest's global setup) without it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { corpusAvailable, SHARED_CORPUS } from '../support/shared-corpus';
import { TOKENS, testFixture } from '../support/test-fixture';
import { inProcessQuire } from '../sync/in-process-quire';
import { filesUnder } from '../support/folder-files';

/**
 * Files of a Git Sync repository the import does not carry, each with the reason (the README
 * lists these rules). Anything else that differs fails.
 */
const NOT_IMPORTED = /(^|\/)\.gitbook\/(?!assets\/)/;

const COMPUTED =
  'the OpenAPI reference under this page is a computed page, which the server does not hold: ' +
  'the page has no children left, so the mirror writes it as a file of its own';
const LINK_TITLE =
  'an entry of SUMMARY.md has a link title (`* [Title](page.md "link title")`), which the ' +
  "server's pages do not keep: the entry comes back without it";
const FOLDER_LINK =
  'a link to a page with children is written here as `../plans/community/README.md` (edited by ' +
  'hand in Git); Git Sync writes such links by the folder, `../plans/community/`, and so does ' +
  'a fresh mirror';
/** Corpus files that come back different, each with why (README: "What differs"). */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'changelog/SUMMARY.md': LINK_TITLE,
  'documentation/SUMMARY.md': LINK_TITLE,
  'guides/SUMMARY.md': LINK_TITLE,
  'developers/SUMMARY.md': COMPUTED,
  'developers/gitbook-api/api-reference/README.md': COMPUTED,
  'developers/gitbook-api/api-reference.md': COMPUTED,
  'documentation/account-and-billing/billing-faq/payments-and-invoices.md': FOLDER_LINK,
};

function corpusFolders(): string[] {
  if (!corpusAvailable) return [];
  const docs = readFileSync(join(SHARED_CORPUS, 'docs.yaml'), 'utf8');
  return [...docs.matchAll(/^\s*directory: \.\/(\S+)\s*$/gm)].map((m) => m[1] ?? '');
}

/** Git's C-style quoting of unusual paths in ASSETS.tsv (`"a\342\200\257b.png"`). */
function unquoteGitPath(path: string): string {
  if (!path.startsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  for (let i = 0; i < body.length; i += 1) {
    const octal = body[i] === '\\' ? /^[0-7]{3}/.exec(body.slice(i + 1))?.[0] : undefined;
    if (octal) {
      bytes.push(parseInt(octal, 8));
      i += 3;
    } else if (body[i] === '\\') {
      bytes.push(
        ({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[body[i + 1] ?? ''] ?? 0,
      );
      i += 1;
    } else bytes.push(...Buffer.from(body[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

const folders = corpusFolders();
let t: TestServer;
let dir: string;

describe.skipIf(!corpusAvailable)('quire import of the Git Sync corpus', () => {
  beforeAll(async () => {
    const fixture = testFixture();
    fixture.organizations[0]!.spaces!.push(
      ...folders.map((folder) => ({ id: `s-corpus-${folder}`, title: `Corpus ${folder}` })),
    );
    // Correctness, not speed: the machine running the suite may be loaded far past its cores.
    t = await startTestServer({ fixture, config: { cpuJobBudgetMs: 60_000 } });
    dir = mkdtempSync(join(tmpdir(), 'quire-corpus-import-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('imports, merges and mirrors every space folder byte for byte', async () => {
    const assets = readFileSync(join(SHARED_CORPUS, 'ASSETS.tsv'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => unquoteGitPath(line.slice(line.indexOf('\t') + 1)));
    const quire = inProcessQuire(dir);
    const mirror = join(dir, 'mirror');
    const login = await quire(
      'login',
      '--server',
      t.url,
      '--token',
      TOKENS.ada,
      '--folder',
      mirror,
    );
    expect(login.code, login.stderr).toBe(0);
    const expected = new Map<string, string[]>();
    for (const folder of folders) {
      const source = join(dir, 'corpus', folder);
      cpSync(join(SHARED_CORPUS, folder), source, { recursive: true });
      for (const asset of assets.filter((path) => path.startsWith(`${folder}/`))) {
        const file = join(dir, 'corpus', asset);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `stand-in for ${asset}\n`);
      }
      const result = await quire('import', source, '--space', `s-corpus-${folder}`, '--merge');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('merged.');
      expected.set(
        folder,
        filesUnder(source).filter((path) => !NOT_IMPORTED.test(path)),
      );
    }
    const synced = await quire('sync', '--once');
    expect(synced.code, synced.stderr).toBe(0);
    const differing: string[] = [];
    for (const folder of folders) {
      const source = join(dir, 'corpus', folder);
      const space = join(mirror, 'Acme', `Corpus ${folder}`);
      const files = expected.get(folder) ?? [];
      const written = new Set(filesUnder(space));
      for (const path of files) {
        const same =
          written.delete(path) &&
          readFileSync(join(space, path)).equals(readFileSync(join(source, path)));
        if (!same) differing.push(`${folder}/${path}`);
      }
      differing.push(...[...written].map((path) => `${folder}/${path}`));
    }
    expect(differing.sort()).toEqual(Object.keys(KNOWN_DIFFERENCES).sort());
  }, 300_000);
});
