// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Layering (README, "Layout"): each layer below may import only what its zone leaves open. The
// TypeScript projects (tsconfig.<layer>.json) enforce the same arrows on resolved files; these
// zones catch them in the editor and name the rule. test/architecture/layering.test.ts breaks
// every one of them on purpose.

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

/** A relative import climbing into the src/ folder of another layer (`../../server/db`). */
function into(dirs, message) {
  return { regex: `^(\\.\\./)+(src/)?(${dirs.join('|')})(/|$)`, message };
}

const node = (message) => ({
  paths: builtinModules.filter((name) => !name.startsWith('_')).map((name) => ({ name, message })),
  patterns: [{ regex: '^node:', message }],
});
const electron = (who) => ({ regex: '^electron(/|$)', message: `${who} never imports electron.` });
const react = (who) => ({ regex: '^react(-dom)?(/|$)', message: `${who} never imports React.` });

/** One zone: `no-restricted-imports` for `files` (tests excepted), forbidding `forbid`. */
function zone(name, files, forbid, ignores = []) {
  const paths = forbid.flatMap((entry) => entry.paths ?? []);
  const patterns = forbid.flatMap((entry) => entry.patterns ?? [entry]);
  return {
    name: `layering/${name}`,
    files,
    ignores: [...ignores, ...TESTS],
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  };
}

const SHELL = ['src/main/electron/**'];
const ROOTS = ['src/main/cli/quire-main.ts', 'src/demo/**'];
const DESKTOP_ROOT = ['src/main/index.ts'];

// Node globals that neither a browser nor a pure module has (typescript-eslint turns `no-undef`
// off for TypeScript, so narrower `globals` alone would report nothing).
const NODE_GLOBALS = ['process', 'Buffer', 'require', 'module', 'exports', 'global', '__dirname']
  .concat(['__filename', 'setImmediate', 'clearImmediate'])
  .map((name) => ({ name, message: `${name} is a Node global; this layer runs without Node.` }));
const DOM_GLOBALS = ['window', 'self', 'document', 'navigator', 'location', 'localStorage']
  .concat(['sessionStorage', 'HTMLElement', 'Element', 'alert'])
  .map((name) => ({ name, message: `${name} is a DOM global; src/shared runs anywhere.` }));

const layering = [
  zone(
    'shared',
    ['src/shared/**'],
    [
      node('src/shared is pure: no Node module.'),
      electron('src/shared'),
      react('src/shared'),
      {
        regex: '^@gitbook/api(/|$)',
        allowTypeImports: true,
        message: 'src/shared takes only types from @gitbook/api (its client is not pure).',
      },
      into(
        ['main', 'server', 'common', 'renderer', 'preload', 'demo', 'test'],
        'src/shared imports nothing of the other layers.',
      ),
    ],
  ),
  zone(
    'common',
    ['src/common/**'],
    [
      electron('src/common'),
      react('src/common'),
      into(
        ['main', 'server', 'renderer', 'preload', 'demo', 'test'],
        'src/common knows no layer: it imports only src/shared, npm and Node.',
      ),
    ],
  ),
  zone(
    'server',
    ['src/server/**'],
    [
      electron('The server'),
      react('The server'),
      into(
        ['main', 'renderer', 'preload', 'demo', 'test'],
        'The server imports nothing of the desktop: only src/shared and src/common.',
      ),
    ],
  ),
  zone(
    'engine',
    ['src/main/**'],
    [
      electron('The engine (src/main outside electron/)'),
      react('The engine'),
      into(
        ['server', 'renderer', 'preload', 'electron', 'demo', 'test'],
        'The engine imports only src/shared and src/common: not the server, the Electron shell or the UI.',
      ),
      { regex: '^\\./electron(/|$)', message: 'The engine never imports the Electron shell.' },
    ],
    [...SHELL, ...ROOTS, ...DESKTOP_ROOT],
  ),
  zone('shell', SHELL, [
    react('The Electron main process'),
    into(
      ['server', 'renderer', 'preload', 'demo', 'test'],
      'The Electron shell imports the engine, src/shared, src/common and electron only.',
    ),
  ]),
  zone(
    'preload',
    ['src/preload/**'],
    [
      node('A sandboxed preload has no Node modules.'),
      react('The preload'),
      into(
        ['main', 'server', 'common', 'renderer', 'demo', 'test'],
        'The preload imports only src/shared and electron.',
      ),
    ],
  ),
  zone(
    'renderer',
    ['src/renderer/**'],
    [
      node('The renderer runs in a browser: no Node module.'),
      electron('The renderer'),
      into(
        ['main', 'server', 'common', 'preload', 'demo', 'test'],
        'The renderer imports only src/shared and its own files; it reaches the engine through the preload.',
      ),
    ],
  ),
  zone('desktop-root', DESKTOP_ROOT, [
    react('The Electron main process'),
    into(
      ['server', 'renderer', 'preload', 'test'],
      'The Electron main wires the shell, the engine and the demo launcher (src/demo): the server only through src/demo.',
    ),
  ]),
  zone('roots', ROOTS, [
    electron('A headless composition root'),
    react('A headless composition root'),
    into(
      ['renderer', 'preload', 'electron', 'test'],
      'The CLI and demo roots wire the server and the engine, not the desktop app.',
    ),
  ]),
  {
    name: 'layering/renderer-globals',
    files: ['src/renderer/**'],
    ignores: TESTS,
    rules: { 'no-restricted-globals': ['error', ...NODE_GLOBALS] },
  },
  {
    name: 'layering/shared-globals',
    files: ['src/shared/**'],
    ignores: TESTS,
    rules: { 'no-restricted-globals': ['error', ...NODE_GLOBALS, ...DOM_GLOBALS] },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', '.quire-server/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Globals: Node everywhere but in the pure and browser layers (whose tests run under Node).
  {
    ignores: ['src/shared/**', 'src/renderer/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: TESTS, languageOptions: { globals: { ...globals.node } } },
  {
    files: ['src/renderer/**', 'src/preload/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...layering,
);
