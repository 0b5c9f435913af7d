import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAtomicWriteTempName, removeStaleTempFiles } from './atomic-write';

/**
 * Kills a real writer process with SIGKILL at random moments and checks that the target file is
 * always one of the complete versions, never a torn mix. The writer runs the real module, bundled
 * to plain JS once: starting each child through tsx costs about a second, which would blow the
 * time budget for twenty kills.
 */

const MAX_KILLS = 20;
const MIN_KILLS = 5;
const LOOP_BUDGET_MS = 10_000;
const FIRST_WRITE_TIMEOUT_MS = 5_000;

/** [byte length, fill byte] per version; distinct lengths make a truncated file detectable too. */
const INITIAL: readonly [number, number] = [1_000_000, 0x6f];
const VARIANTS: readonly (readonly [number, number])[] = [
  [3_000_000, 0x61],
  [2_000_000, 0x62],
  [4_000_000, 0x63],
];

const WRITER = `
import { atomicWriteFile } from './atomic-write.mjs';
const [root, target, spec] = process.argv.slice(2);
const variants = JSON.parse(spec).map(([length, fill]) => Buffer.alloc(length, fill));
for (let i = 0; ; i += 1) {
  await atomicWriteFile(target, variants[i % variants.length], { root });
  if (i === 0) process.stdout.write('wrote\\n');
}
`;

let base: string;
let root: string;
let writer: string;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-crash-'));
  root = path.join(base, 'space');
  fs.mkdirSync(root);
  await build({
    entryPoints: [fileURLToPath(new URL('./atomic-write.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: path.join(base, 'atomic-write.mjs'),
    logLevel: 'silent',
  });
  writer = path.join(base, 'writer.mjs');
  fs.writeFileSync(writer, WRITER);
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** Starts a writer, waits until it has completed one write, lets it run a random while, kills it. */
async function runAndKill(target: string): Promise<void> {
  const child = spawn(process.execPath, [writer, root, target, JSON.stringify(VARIANTS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('writer never wrote')),
        FIRST_WRITE_TIMEOUT_MS,
      );
      child.stdout.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`writer exited early with ${code}`));
      });
    });
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('atomicWriteFile under SIGKILL', () => {
  it('leaves the target either fully old or fully new after every kill', async () => {
    const target = path.join(root, 'big.md');
    const complete = new Map<number, Buffer>();
    for (const [length, fill] of [INITIAL, ...VARIANTS]) {
      complete.set(length, Buffer.alloc(length, fill));
    }
    fs.writeFileSync(target, Buffer.alloc(INITIAL[0], INITIAL[1]));

    const deadline = Date.now() + LOOP_BUDGET_MS;
    let kills = 0;
    let killsMidWrite = 0;
    // Keep going past MAX_KILLS until one kill has landed inside a write, within the budget.
    const wantMore = () => kills < MAX_KILLS || killsMidWrite === 0;
    while (kills < MIN_KILLS || (wantMore() && Date.now() < deadline)) {
      await runAndKill(target);
      kills += 1;

      const content = fs.readFileSync(target);
      const expected = complete.get(content.length);
      expect(expected, `torn file of ${content.length} bytes after kill ${kills}`).toBeDefined();
      expect(content.equals(expected ?? Buffer.alloc(0)), `torn content after kill ${kills}`).toBe(
        true,
      );

      const leftovers = fs.readdirSync(root).filter((name) => name !== 'big.md');
      expect(leftovers.every(isAtomicWriteTempName)).toBe(true);
      if (leftovers.length > 0) killsMidWrite += 1;
      expect((await removeStaleTempFiles(root, { root })).sort()).toEqual(leftovers.sort());
    }

    // A leftover temp file proves the kill landed inside a write, so the check was meaningful.
    expect(killsMidWrite).toBeGreaterThan(0);
  });
});
