import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Breaks every layering rule (README, "Layout") in a scratch file and shows `npm run check`
// catching it: ESLint's zones here, the per-layer TypeScript projects in layering-tsc.test.ts.
// The scratch code is linted as text under a path in the layer; nothing is written to src/.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Scratch {
  /** Where the scratch file would live (decides the layer). */
  file: string;
  code: string;
}

/** An import of `specifier`, used, so that only a layering rule can complain. */
const importing = (specifier: string, as = 'imported'): string =>
  `import * as ${as} from '${specifier}';\nexport { ${as} };\n`;
const nodeFs = importing('node:fs', 'nodeFs');

const SHARED = 'src/shared/contract/layering-scratch.ts';
const COMMON = 'src/common/layering-scratch.ts';
const SERVER = 'src/server/content/layering-scratch.ts';
const ENGINE = 'src/main/sync/layering-scratch.ts';
const ENGINE_ROOT = 'src/main/layering-scratch.ts';
const SHELL = 'src/main/electron/layering-scratch.ts';
const ELECTRON_MAIN = 'src/main/index.ts';
const PRELOAD = 'src/preload/layering-scratch.ts';
const RENDERER = 'src/renderer/src/layering-scratch.tsx';
const CLI_ROOT = 'src/main/cli/quire-main.ts';
const DEMO_ROOT = 'src/demo/layering-scratch.ts';

/** Every forbidden arrow: [what it breaks, scratch file]. */
const FORBIDDEN_IMPORTS: Array<[string, Scratch]> = [
  ['shared → node:fs', { file: SHARED, code: importing('node:fs') }],
  ['shared → path (bare builtin)', { file: SHARED, code: importing('path') }],
  ['shared → electron', { file: SHARED, code: importing('electron') }],
  ['shared → react', { file: SHARED, code: importing('react') }],
  ['shared → @gitbook/api values', { file: SHARED, code: importing('@gitbook/api') }],
  ['shared → engine', { file: SHARED, code: importing('../../main/sync/sync-engine') }],
  ['shared → server', { file: SHARED, code: importing('../../server/auth/roles') }],
  ['shared → common', { file: SHARED, code: importing('../../common/fs') }],
  ['shared → renderer', { file: SHARED, code: importing('../../renderer/src/App') }],
  ['shared → preload', { file: SHARED, code: importing('../../preload/index') }],
  ['common → engine', { file: COMMON, code: importing('../main/sync-ports') }],
  ['common → server', { file: COMMON, code: importing('../server/auth/roles') }],
  ['common → renderer', { file: COMMON, code: importing('../renderer/src/App') }],
  ['common → electron', { file: COMMON, code: importing('electron') }],
  ['server → engine', { file: SERVER, code: importing('../../main/sync-ports') }],
  ['server → shell', { file: SERVER, code: importing('../../main/electron/main-window') }],
  ['server → renderer', { file: SERVER, code: importing('../../renderer/src/App') }],
  ['server → preload', { file: SERVER, code: importing('../../preload/index') }],
  ['server → demo root', { file: SERVER, code: importing('../../demo/start-demo') }],
  ['server → electron', { file: SERVER, code: importing('electron') }],
  ['engine → electron', { file: ENGINE, code: importing('electron') }],
  ['engine → shell', { file: ENGINE, code: importing('../electron/safe-storage-secret-store') }],
  ['engine (root) → shell', { file: ENGINE_ROOT, code: importing('./electron/main-window') }],
  ['engine → server', { file: ENGINE, code: importing('../../server/auth/roles') }],
  ['engine → renderer', { file: ENGINE, code: importing('../../renderer/src/App') }],
  ['engine → preload', { file: ENGINE, code: importing('../../preload/index') }],
  ['engine → demo root', { file: ENGINE, code: importing('../../demo/start-demo') }],
  ['engine → tests', { file: ENGINE, code: importing('../../../test/support/test-fixture') }],
  ['shell → server', { file: SHELL, code: importing('../../server/auth/roles') }],
  ['shell → renderer', { file: SHELL, code: importing('../../renderer/src/App') }],
  ['shell → preload', { file: SHELL, code: importing('../../preload/index') }],
  ['Electron main → server', { file: ELECTRON_MAIN, code: importing('../server/build-server') }],
  ['Electron main → renderer', { file: ELECTRON_MAIN, code: importing('../renderer/src/App') }],
  ['Electron main → preload', { file: ELECTRON_MAIN, code: importing('../preload/index') }],
  ['preload → engine', { file: PRELOAD, code: importing('../main/sync-ports') }],
  ['preload → server', { file: PRELOAD, code: importing('../server/auth/roles') }],
  ['preload → renderer', { file: PRELOAD, code: importing('../renderer/src/App') }],
  ['preload → node:fs', { file: PRELOAD, code: importing('node:fs') }],
  ['renderer → engine', { file: RENDERER, code: importing('../../main/sync-ports') }],
  ['renderer → server', { file: RENDERER, code: importing('../../server/auth/roles') }],
  ['renderer → common', { file: RENDERER, code: importing('../../common/fs') }],
  ['renderer → preload', { file: RENDERER, code: importing('../../preload/index') }],
  ['renderer → electron', { file: RENDERER, code: importing('electron') }],
  ['renderer → node:fs', { file: RENDERER, code: importing('node:fs') }],
  ['renderer → fs (bare builtin)', { file: RENDERER, code: importing('fs') }],
  ['CLI root → renderer', { file: CLI_ROOT, code: importing('../../renderer/src/App') }],
  ['CLI root → shell', { file: CLI_ROOT, code: importing('../electron/main-window') }],
  ['CLI root → electron', { file: CLI_ROOT, code: importing('electron') }],
  ['demo root → electron', { file: DEMO_ROOT, code: importing('electron') }],
  ['demo root → renderer', { file: DEMO_ROOT, code: importing('../renderer/src/App') }],
];

/** Node (and, for src/shared, DOM) globals in layers that run without them. */
const FORBIDDEN_GLOBALS: Array<[string, Scratch]> = [
  ['shared uses process', { file: SHARED, code: 'export const home = process.env.HOME;\n' }],
  ['shared uses Buffer', { file: SHARED, code: "export const b = Buffer.from('x');\n" }],
  ['shared uses require', { file: SHARED, code: "export const fs: unknown = require('fs');\n" }],
  ['shared uses document', { file: SHARED, code: 'export const t = document.title;\n' }],
  ['shared uses window', { file: SHARED, code: 'export const w = window.innerWidth;\n' }],
  ['renderer uses process', { file: RENDERER, code: 'export const e = process.env.HOME;\n' }],
  ['renderer uses Buffer', { file: RENDERER, code: "export const b = Buffer.from('x');\n" }],
  ['renderer uses require', { file: RENDERER, code: "export const m: unknown = require('fs');\n" }],
];

/** Arrows the table allows: none of these may trip a layering rule. */
const ALLOWED: Array<[string, Scratch]> = [
  [
    'shared → itself, js-yaml and @gitbook/api types',
    {
      file: SHARED,
      code:
        importing('../app-info') +
        "import { dump } from 'js-yaml';\nimport type { Space } from '@gitbook/api';\n" +
        'export type { Space };\nexport { dump };\n',
    },
  ],
  ['common → shared, Node', { file: COMMON, code: importing('../shared/app-info') + nodeFs }],
  [
    'server → shared, common, Node',
    {
      file: SERVER,
      code: importing('../../shared/app-info') + nodeFs + importing('../../common/fs', 'second'),
    },
  ],
  [
    'engine → shared, common, Node, its own folders',
    {
      file: ENGINE,
      code:
        importing('../../shared/app-info') +
        importing('../../common/fs', 'second') +
        nodeFs +
        importing('./sync-engine', 'sibling'),
    },
  ],
  [
    'shell → engine, shared, electron',
    {
      file: SHELL,
      code:
        importing('../sync-ports') +
        "import { app } from 'electron';\nexport { app };\n" +
        importing('../../shared/app-info', 'second'),
    },
  ],
  [
    'Electron main → shell, engine, electron, the demo launcher',
    {
      file: ELECTRON_MAIN,
      code:
        importing('./electron/main-window') +
        importing('./app/quire-app', 'second') +
        "import { app } from 'electron';\nexport { app };\n" +
        importing('../demo/demo-server', 'third'),
    },
  ],
  [
    'preload → shared, electron',
    {
      file: PRELOAD,
      code:
        importing('../shared/app-info') +
        "import { ipcRenderer } from 'electron';\nexport { ipcRenderer };\n",
    },
  ],
  [
    'renderer → shared, React, its own files',
    {
      file: RENDERER,
      code:
        importing('../../shared/app-info') +
        "import { useState } from 'react';\nexport { useState };\n" +
        importing('./App', 'second'),
    },
  ],
  [
    'CLI root → server and engine',
    {
      file: CLI_ROOT,
      code: importing('../../server/build-server') + importing('../sync/sync-engine', 'second'),
    },
  ],
  [
    'demo root → server and engine',
    {
      file: DEMO_ROOT,
      code: importing('../server/build-server') + importing('../main/sync-ports', 'second'),
    },
  ],
  [
    'a test → anything',
    {
      file: 'test/architecture/layering-scratch.test.ts',
      code:
        importing('../../src/server/auth/roles') +
        importing('../../src/main/electron/main-window', 'second') +
        "import { app } from 'electron';\nexport { app };\n",
    },
  ],
  [
    'a co-located test in src/shared → Node',
    {
      file: 'src/shared/layering-scratch.test.ts',
      code: nodeFs + 'export const p = process.pid;\n',
    },
  ],
];

const LAYERING_RULES = ['no-restricted-imports', 'no-restricted-globals'];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function layeringErrors({ file, code }: Scratch): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  const messages = result?.messages ?? [];
  const fatal = messages.filter((message) => message.fatal);
  expect(fatal, 'the scratch code parses').toEqual([]);
  return messages
    .filter((message) => message.ruleId !== null && LAYERING_RULES.includes(message.ruleId))
    .map((message) => `${message.ruleId}: ${message.message}`);
}

describe('ESLint zones reject every forbidden arrow', () => {
  it.each(FORBIDDEN_IMPORTS)('%s', async (_arrow, scratch) => {
    const errors = await layeringErrors(scratch);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^no-restricted-imports: /);
  });

  it.each(FORBIDDEN_GLOBALS)('%s', async (_arrow, scratch) => {
    const errors = await layeringErrors(scratch);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^no-restricted-globals: /);
  });
});

describe('ESLint zones leave the allowed arrows open', () => {
  it.each(ALLOWED)('%s', async (_arrow, scratch) => {
    expect(await layeringErrors(scratch)).toEqual([]);
  });
});
