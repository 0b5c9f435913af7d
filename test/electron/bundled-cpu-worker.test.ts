import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuPool, defaultCpuPoolOptions } from '../../src/server/workers/cpu-pool';

// The desktop app's demo server runs from the electron-vite bundle, where no TypeScript loader
// exists: its CPU workers load the compiled entry built beside the main bundle (out/main, made
// by the global setup, test/support/app-build-setup.ts).
const pool = new CpuPool(
  defaultCpuPoolOptions({
    workerFile: pathToFileURL(path.resolve('out/main/cpu-worker.js')).href,
    threads: 1,
    warmThreads: 0,
  }),
);
afterAll(() => pool.close());

describe('the bundled CPU worker', () => {
  it('runs the server’s jobs from out/main/cpu-worker.js', { timeout: 60_000 }, async () => {
    const [links] = await pool.run('links', { bodies: ['See [setup](guides/setup.md).'] });
    expect(links).toEqual([expect.objectContaining({ href: 'guides/setup.md', kind: 'page' })]);
    const [merge] = await pool.run('merge-texts', {
      texts: [{ base: 'a\nb\nc\n', ours: 'A\nb\nc\n', theirs: 'a\nb\nC\n' }],
    });
    expect(merge).toEqual({ markdown: 'A\nb\nC\n' });
  });
});
