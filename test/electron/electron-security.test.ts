import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.resolve('scripts/check-electron-security.mjs');

/** The script's output and exit code (execFile rejects on a non-zero exit). */
async function check(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, ...args], { timeout: 150_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('electronegativity on the desktop app', () => {
  it(
    'finds nothing of high severity in the electron-vite build',
    { timeout: 180_000 },
    async () => {
      // out/ is the build the global setup made (test/support/app-build-setup.ts).
      const { code, output } = await check([]);
      expect(output).toMatch(/electronegativity: \d+ findings, 0 high or critical/);
      expect(code).toBe(0);
      // The main bundle hosts the engine; native and Node packages stay external (node_modules).
      const main = await readFile(path.resolve('out/main/index.js'), 'utf8');
      expect(main).toContain('class QuireApp');
      expect(main).toContain('class SyncWatcher');
      expect(main).toMatch(/^import \w+ from "better-sqlite3";$/m);
    },
  );

  it('fails on an insecure window (the check is not blind)', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quire-insecure-app-'));
    scratch.push(dir);
    await writeFile(
      path.join(dir, 'main.js'),
      "const { BrowserWindow } = require('electron');\n" +
        'new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n',
    );
    const { code, output } = await check(['--input', dir]);
    expect(output).toContain('FAIL HIGH CONTEXT_ISOLATION_JS_CHECK');
    expect(code).toBe(1);
  });
});
