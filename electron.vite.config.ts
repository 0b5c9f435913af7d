import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    // The main bundle holds the engine (src/main, src/shared, src/common); every package of
    // `dependencies` stays in node_modules: better-sqlite3's native binding cannot be bundled, and
    // electron-builder rebuilds it for Electron (test/electron/electron-security.test.ts checks).
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // The demo server's CPU workers (src/main/index.ts points the server at it).
          'cpu-worker': resolve('src/server/workers/cpu-worker-entry.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    // Sandboxed preloads must be CommonJS.
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    // electron-vite leaves bundles unminified by default; the renderer is also served by
    // `quire ui`, so it ships minified (a third of the size).
    build: {
      minify: 'esbuild',
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
