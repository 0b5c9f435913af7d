import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { listImportFiles } from '../../src/main/import/list-import-files';
import { packImportTar } from '../../src/main/import/pack-import-tar';
import { REPO_ROOT } from './bench-child';
import type { Scenario } from './bench-scenario';
import { judgeTimed, ms, type Target } from './bench-table';
import { clientDirs, withServer } from './sync-scenarios';
import { summarize } from './timing-stats';

const TOKEN = 'quire-bench-import-token';
const SPACE = 's-bench-import';
const PAGES = 1_000;
const IMAGES = 200;
/** 200 × 2.5 MB = 500 MB of images (the memory case); --quick: 200 × 100 KB. */
const IMAGE_BYTES = 2.5 * 1024 * 1024;
const QUICK_IMAGE_BYTES = 100 * 1024;
const MAX_RSS_MB = 300;
const TARGET: Target = { check: `peak RSS < ${MAX_RSS_MB} MB` };

function importFixture(): Fixture {
  return {
    users: [{ id: 'u-import', displayName: 'Importer', email: 'i@bench.test', tokens: [TOKEN] }],
    organizations: [
      {
        id: 'o-import',
        title: 'Import Bench',
        members: [{ user: 'u-import', role: 'admin' }],
        spaces: [{ id: SPACE, title: 'Imported' }],
      },
    ],
  };
}

/** A Git Sync folder: 20 groups of 50 pages (every tenth with 4 children), `IMAGES` images. */
function writeRepository(folder: string, imageBytes: number): void {
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  };
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  write('README.md', '# Welcome\n\nStart here.\n');
  let page = 1;
  let image = 0;
  for (let group = 0; page < PAGES; group += 1) {
    summary.push(`## Group ${group}`, '');
    for (let i = 0; i < 10 && page < PAGES; i += 1) {
      const parent = `group-${group}/topic-${i}`;
      summary.push(`* [Topic ${group}.${i}](${parent}/README.md)`);
      write(`${parent}/README.md`, `# Topic ${group}.${i}\n\n${'Some text. '.repeat(50)}\n`);
      page += 1;
      for (let c = 0; c < 4 && page < PAGES; c += 1, page += 1) {
        const img = image < IMAGES ? `\n![](../../.gitbook/assets/image-${image++}.png)\n` : '';
        summary.push(`  * [Step ${c}](${parent}/step-${c}.md)`);
        write(`${parent}/step-${c}.md`, `# Step ${c}\n\n${'Do this. '.repeat(80)}\n${img}`);
      }
    }
    summary.push('');
  }
  write('SUMMARY.md', summary.join('\n'));
  const bytes = Buffer.alloc(imageBytes, 7);
  for (let i = 0; i < IMAGES; i += 1) {
    bytes.writeUInt32BE(i, 0);
    write(`.gitbook/assets/image-${i}.png`, bytes);
  }
}

/** The floor: the same files read from disk into the same tar, sent nowhere. */
async function packFloor(folder: string): Promise<number> {
  const started = performance.now();
  const { files } = await listImportFiles(folder);
  await pipeline(
    packImportTar(files),
    new Writable({ write: (_chunk, _encoding, done) => done() }),
  );
  return performance.now() - started;
}

interface ClientReport {
  code: number;
  ms: number;
  maxRssMB: number;
  stdout: string;
  stderr: string;
}

const quireImport: Scenario = {
  name: `quire import of ${PAGES.toLocaleString('en-US')} pages and ${IMAGES} images`,
  target: TARGET,
  async run(ctx) {
    const imageBytes = ctx.options.quick ? QUICK_IMAGE_BYTES : IMAGE_BYTES;
    return withServer(ctx, 'import', importFixture(), async (server, dir) => {
      const dirs = clientDirs(dir, 'client');
      try {
        const repository = join(dir, 'repository');
        writeRepository(repository, imageBytes);
        const quire = (...args: string[]) =>
          spawnSync(
            process.execPath,
            [
              '--import',
              'tsx',
              join(REPO_ROOT, 'test/bench/import-bench-client.ts'),
              '--home',
              dirs.home,
              ...args,
            ],
            { encoding: 'utf8', cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
          );
        const login = quire(
          'login',
          '--server',
          server.url,
          '--token',
          TOKEN,
          '--folder',
          dirs.folder,
        );
        if (login.status !== 0) throw new Error(`login failed: ${login.stderr}`);
        const floorMs = await packFloor(repository);
        const result = quire('import', repository, '--space', SPACE, '--merge');
        const report = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as ClientReport;
        if (result.status !== 0 || report.code !== 0) {
          throw new Error(`quire import failed: ${report.stderr ?? result.stderr}`);
        }
        const timing = summarize([report.ms]);
        const floor = {
          label: 'the same files packed into the same tar, sent nowhere',
          stats: summarize([floorMs]),
        };
        const floorMultiple = report.ms / floorMs;
        const judged = judgeTimed(TARGET, timing, floorMultiple);
        const rssOk = report.maxRssMB < MAX_RSS_MB;
        const total = (IMAGES * imageBytes) / (1024 * 1024);
        ctx.log(
          `  import ${ms(report.ms)} ms, floor ${ms(floorMs)} ms, peak RSS ${report.maxRssMB.toFixed(0)} MB`,
        );
        return {
          scenario: `quire import --merge, ${PAGES} pages + ${IMAGES} images (${total.toFixed(0)} MB)`,
          target: TARGET,
          status: 'measured',
          timing,
          floor,
          floorMultiple,
          verdict: rssOk && judged.verdict !== 'FAIL' ? 'PASS' : 'FAIL',
          notes: [
            `peak RSS ${report.maxRssMB.toFixed(0)} MB (target < ${MAX_RSS_MB} MB), the client process alone`,
            'one whole import: check, tar streamed to the server, its parse, store and merge',
            report.stdout.split('\n')[0] ?? '',
          ],
        };
      } finally {
        dirs.remove();
      }
    });
  },
};

/** `quire import` rows of `npm run bench:sync`. */
export const importScenarios: readonly Scenario[] = [quireImport];
