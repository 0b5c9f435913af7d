import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../support/test-fixture';
import {
  LETTERS_FOLDER,
  LETTERS_SPACE as SPACE,
  openLetters,
  type LettersKit,
  workingChangeRequest,
} from './letters-space';
import { engineFor, readTree, remoteEdit, treeAsText } from './sync-test-kit';

/**
 * A page's image link is relative to its file (`.gitbook/assets/x.png` from `alpha.md`,
 * `../.gitbook/assets/x.png` from `alpha/README.md`), and the engine compares a file's bytes with
 * what the server's revision renders at a path: when the user's push places the page at another
 * path, the same content reads as different bytes there; the pull rewrites the file's links for
 * its place (see follow-placed-pages.ts). Found by sync-model.property.test.ts with random seeds (page commands only): `create(alpha/…), image(alpha.md), merge` and
 * `image(alpha.md), sync, move(alpha.md → beta/alpha.md), merge`.
 */
let letters: LettersKit;
beforeEach(async () => {
  letters = await openLetters();
});
afterEach(() => letters.close());

const IMAGE = Buffer.from('89504e470d0a1a0a01', 'hex');

function write(relative: string, text: string | Buffer): void {
  mkdirSync(join(letters.root, relative, '..'), { recursive: true });
  writeFileSync(join(letters.root, relative), text);
}

/** Merges the working change request and syncs twice; the problems the syncs reported. */
async function mergeAndSync(): Promise<string[]> {
  const working = await workingChangeRequest(letters.t);
  await letters.t.client(TOKENS.ada).spaces.mergeChangeRequest(SPACE, working!.id);
  const problems: string[] = [];
  for (let i = 0; i < 2; i++) {
    const report = await letters.kit.engine.syncOnce();
    for (const problem of report.spaces[0]?.problems ?? []) {
      problems.push(`${problem.kind} ${problem.path}`);
    }
  }
  return problems;
}

async function freshFolder(): Promise<Record<string, string>> {
  const fresh = engineFor(letters.t);
  try {
    await fresh.engine.syncOnce();
    return treeAsText(readTree(join(fresh.folder, ...LETTERS_FOLDER)));
  } finally {
    fresh.close();
  }
}

describe('a page with a relative image link, placed at another path by its own push', () => {
  it('gaining children (alpha.md → alpha/README.md): no conflict, converges', async () => {
    write('alpha/note1.md', '# Note1\n\nNew.\n');
    write('.gitbook/assets/img1.png', IMAGE);
    write('alpha.md', '# Alpha\n\nWith an image.\n\n![img1.png](.gitbook/assets/img1.png)\n');
    await letters.kit.engine.syncOnce();
    // Was: "conflict alpha.md" (both sides edited line 5: only the link's relative form).
    expect(await mergeAndSync()).toEqual([]);
    expect(treeAsText(readTree(letters.root))).toEqual(await freshFolder());
  });

  it('moved (alpha.md → beta/alpha.md): converges once merged', async () => {
    write('.gitbook/assets/img1.png', IMAGE);
    write('alpha.md', '# Alpha\n\nWith an image.\n\n![img1.png](.gitbook/assets/img1.png)\n');
    await letters.kit.engine.syncOnce();
    mkdirSync(join(letters.root, 'beta'));
    renameSync(join(letters.root, 'alpha.md'), join(letters.root, 'beta/alpha.md'));
    await letters.kit.engine.syncOnce();
    expect(await mergeAndSync()).toEqual([]);
    // Was: beta/alpha.md kept `.gitbook/assets/img1.png` (a broken link there) and its
    // local_edits row never settled, silently: the server has `../.gitbook/assets/img1.png`.
    expect(treeAsText(readTree(letters.root))).toEqual(await freshFolder());
  });

  it('changed on both sides: still a conflict, the local file kept as written', async () => {
    const local = '# Alpha\n\nWith an image.\n\n![img1.png](.gitbook/assets/img1.png)\n';
    write('alpha/note1.md', '# Note1\n\nNew.\n');
    write('.gitbook/assets/img1.png', IMAGE);
    write('alpha.md', local);
    await letters.kit.engine.syncOnce();
    await remoteEdit(letters.t, SPACE, [
      { operation: 'update_page', page: 'p-alpha', document: { markdown: '# Alpha\n\nOther.\n' } },
    ]);
    const report = await letters.kit.engine.syncOnce();
    const problems = (report.spaces[0]?.problems ?? []).map((p) => `${p.kind} ${p.path}`);
    expect(problems).toEqual(['conflict alpha.md']);
    expect(readTree(letters.root).get('alpha.md')?.toString()).toBe(local);
  });
});
