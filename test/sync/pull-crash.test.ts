import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../src/main/cache/open-cache-database';
import { isAtomicWriteTempName } from '../../src/main/mirror/atomic-write';
import type { ChangeRequestContentChange } from '@gitbook/api';
import type { Fixture, FixturePage } from '../../src/server/fixture/fixture-schema';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { testFixture, TOKENS } from '../support/test-fixture';
import { engineFor, fileStamps, readTree, remoteEdit, type EngineKit } from './sync-test-kit';

/**
 * Crash safety of the pull: a child process syncing a 500-page space is killed with SIGKILL at a
 * random progress event, several times, before and after the space changes remotely. After each
 * kill every file in the folder is whole (byte-identical to the server's content for its path,
 * old or new) and the cache passes an integrity check; a final re-sync converges to exactly the
 * tree a clean sync produces, and the sync after that writes nothing and reports nothing.
 */

const CHILD = fileURLToPath(new URL('./pull-crash-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The child, bundled once (better-sqlite3 left to node_modules, so the bundle lives in the
 * checkout's out/): each of the nine runs then starts without tsx compiling the engine again.
 */
const CHILD_BUNDLE = join(REPO, 'out', `pull-crash-child-${process.pid}.mjs`);
const SECTIONS = 25;
const PAGES_PER_SECTION = 19;

function bigFixture(): Fixture {
  const fixture = testFixture();
  const sections: FixturePage[] = Array.from({ length: SECTIONS }, (_, s) => ({
    id: `big-${s}`,
    title: s % 5 === 0 ? `Sección ${s} — über` : `Section ${s}`,
    markdown: `# Section ${s}\n\nIntro of section ${s}.\n`,
    pages: Array.from({ length: PAGES_PER_SECTION }, (_, p) => ({
      id: `big-${s}-${p}`,
      title: `Page ${s}.${p}`,
      markdown: `# Page ${s}.${p}\n\n${`Text of page ${s}.${p}. `.repeat(40 + ((s * 7 + p) % 60))}\n`,
    })),
  }));
  sections.push({
    id: 'big-appendix',
    title: 'Appendix',
    type: 'group',
    pages: Array.from({ length: 5 }, (_, p) => ({
      id: `big-appendix-${p}`,
      title: `Annex ${p}`,
      markdown: `# Annex ${p}\n\n![data](/files/big-file-${p})\n`,
    })),
  });
  fixture.organizations[0]!.spaces!.push({
    id: 's-big',
    title: 'Big',
    pages: sections,
    // Same-named uploads exercise the ` (1)` suffix; sizes make downloads and writes take time.
    files: Array.from({ length: 5 }, (_, f) => ({
      id: `big-file-${f}`,
      name: f < 2 ? 'data.bin' : `data-${f}.bin`,
      contentType: 'application/octet-stream',
      base64: randomBytes(256 * 1024 + f).toString('base64'),
    })),
  });
  return fixture;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: bigFixture() });
  await build({
    entryPoints: [CHILD],
    outfile: CHILD_BUNDLE,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
});
afterAll(async () => {
  rmSync(CHILD_BUNDLE, { force: true });
  await t.close();
});

interface ChildRun {
  killed: boolean;
  events: number;
  exitCode: number | null;
  stderr: string;
}

/** Runs one sync in a child process; SIGKILLs it on its `killAt`-th progress event. */
function runChild(cacheFile: string, folder: string, killAt?: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD_BUNDLE, t.url, TOKENS.ada, cacheFile, folder], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let events = 0;
    let killed = false;
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{"phase"')) continue;
        events++;
        if (!killed && killAt !== undefined && events >= killAt) {
          killed = child.kill('SIGKILL');
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve({ killed, events, exitCode, stderr }));
  });
}

/** A small seeded generator, so a failing run can be replayed from the seed in its message. */
function seeded(seed: number): (max: number) => number {
  let state = seed >>> 0 || 1;
  return (max) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % max;
  };
}

/** Every file is a whole version of its path's content, or a temp file a kill left behind. */
function expectWhole(
  folder: string,
  versions: readonly ReadonlyMap<string, Buffer>[],
  context: string,
): void {
  for (const [path, bytes] of readTree(folder)) {
    if (isAtomicWriteTempName(basename(path))) continue;
    const known = versions.map((tree) => tree.get(path)).filter((v) => v !== undefined);
    expect(known.length, `${context}: unexpected file ${path}`).toBeGreaterThan(0);
    expect(
      known.some((version) => version.equals(bytes)),
      `${context}: ${path} is not a whole version`,
    ).toBe(true);
  }
}

function expectCacheIntact(cacheFile: string): void {
  // Opening recovers the WAL the kill left; the integrity check covers every table and index.
  const db = new Database(cacheFile);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
}

describe('pull under kill -9', () => {
  it('leaves every file whole and converges on re-sync', { timeout: 240_000 }, async () => {
    const seed = Date.now() % 1_000_000;
    const random = seeded(seed);
    const context = `seed ${seed}`;

    // The reference: what a clean, uninterrupted sync writes, before and after the remote edit.
    const reference: EngineKit = engineFor(t);
    const home = mkdtempSync(join(tmpdir(), 'quire-crash-home-'));
    const folder = mkdtempSync(join(tmpdir(), 'quire-crash-folder-'));
    const cacheFile = join(home, 'cache.db');
    // A second subject killed late in its first sync, so the revision moves between the writes
    // and their commit: only the journal of pending writes tells those files from local edits.
    const lateFolder = mkdtempSync(join(tmpdir(), 'quire-crash-late-'));
    const lateCache = join(home, 'late.db');
    try {
      await reference.engine.syncOnce();
      const before = readTree(reference.folder);
      const fullSyncEvents = reference.progress.length;
      expect(before.size).toBeGreaterThan(SECTIONS * PAGES_PER_SECTION);

      let midWriteKills = 0;
      for (let run = 0; run < 4; run++) {
        const killAt = 1 + random(fullSyncEvents);
        const result = await runChild(cacheFile, folder, killAt);
        expect(result.stderr, `${context}, run ${run}`).not.toMatch(/Error/);
        if (result.killed) midWriteKills++;
        expectWhole(folder, [before], `${context}, run ${run} killed at ${killAt}`);
        expectCacheIntact(cacheFile);
      }
      expect(midWriteKills, context).toBeGreaterThan(0);
      const late = await runChild(lateCache, lateFolder, fullSyncEvents - 20);
      expect(late.killed).toBe(true);
      expectWhole(lateFolder, [before], `${context}, late kill`);

      // The space changes remotely: pages edited, deleted (sections with their children),
      // retitled and added, so a resumed sync also rewrites, moves and removes.
      const edits: ChangeRequestContentChange[] = [];
      for (let p = 0; p < 30; p++) {
        const s = 1 + (p % (SECTIONS - 1));
        edits.push({
          operation: 'update_page',
          page: `big-${s}-${p % PAGES_PER_SECTION}`,
          document: { markdown: `# Page ${s}.${p % PAGES_PER_SECTION}\n\nRewritten ${p}.\n` },
        });
      }
      edits.push({ operation: 'delete_page', page: 'big-3' });
      edits.push({ operation: 'delete_page', page: 'big-4' });
      edits.push({ operation: 'update_page', page: 'big-7', title: 'Seventh section' });
      for (let n = 0; n < 5; n++) {
        edits.push({
          operation: 'insert_page',
          into: 'big-8',
          at: 0,
          document: { markdown: `# Added ${n}\n\nNew page ${n}.\n` },
        });
      }
      await remoteEdit(t, 's-big', edits);
      reference.progress.length = 0;
      await reference.engine.syncOnce();
      const incrementalEvents = reference.progress.length;
      const after = readTree(reference.folder);
      expect(after).not.toEqual(before);

      for (let run = 0; run < 2; run++) {
        const killAt = 1 + random(incrementalEvents);
        const result = await runChild(cacheFile, folder, killAt);
        expect(result.stderr, `${context}, run ${run} after the edit`).not.toMatch(/Error/);
        expectWhole(folder, [before, after], `${context}, run ${run} after the edit`);
        expectCacheIntact(cacheFile);
      }

      // An uninterrupted re-sync converges to exactly the clean tree, temp files gone.
      const final = await runChild(cacheFile, folder);
      expect(final.exitCode, final.stderr).toBe(0);
      const tree = readTree(folder);
      expect([...tree.keys()], context).toEqual([...after.keys()]);
      for (const [path, bytes] of after) expect(tree.get(path)?.equals(bytes), path).toBe(true);

      const lateFinal = await runChild(lateCache, lateFolder);
      expect(lateFinal.exitCode, lateFinal.stderr).toBe(0);
      const lateTree = readTree(lateFolder);
      expect([...lateTree.keys()], `${context}, late kill`).toEqual([...after.keys()]);
      for (const [path, bytes] of after) expect(lateTree.get(path)?.equals(bytes), path).toBe(true);

      // Converged: the next sync writes nothing, and nothing was mistaken for a local edit.
      const stamps = fileStamps(folder);
      const cache = openCacheDatabase(cacheFile);
      try {
        const problems = cache.prepare('SELECT kind, path FROM sync_problems').all();
        expect(problems, context).toEqual([]);
        const late = openCacheDatabase(lateCache);
        const lateProblems = late.prepare('SELECT kind, path FROM sync_problems').all();
        late.close();
        expect(lateProblems, `${context}, late kill`).toEqual([]);
        const pending = cache.prepare('SELECT count(*) AS n FROM pending_writes').get();
        expect(pending).toEqual({ n: 0 });
      } finally {
        cache.close();
      }
      const again = await runChild(cacheFile, folder);
      expect(again.exitCode).toBe(0);
      expect(fileStamps(folder)).toEqual(stamps);
    } finally {
      reference.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
      rmSync(lateFolder, { recursive: true, force: true });
    }
  });
});
