// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'http',
  'https',
  'net',
  'url',
  'stream',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', '.quire-server/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Architecture boundaries: only src/main/electron/ and the composition root may touch Electron.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/main/electron/**', 'src/main/index.ts', 'src/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Only src/main/electron/ and the composition root may import electron.',
            },
          ],
        },
      ],
    },
  },
  // src/shared is the UI<->engine contract: neither Node nor the DOM.
  {
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'src/shared imports neither Electron, Node nor the DOM.' },
          ],
          patterns: [
            { group: nodeBuiltins, message: 'src/shared imports neither Node nor the DOM.' },
          ],
        },
      ],
    },
  },
  // The server is a standalone program: no Electron, no desktop code.
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The server never imports electron.' }],
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'The server does not depend on the desktop app.',
            },
          ],
        },
      ],
    },
  },
);
