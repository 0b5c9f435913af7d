// The CPU workers' entry in a bundled build (the desktop app's demo server), where no TypeScript
// loader exists: the bundler compiles the handlers into this file's output (see
// electron.vite.config.ts); the server from sources uses cpu-worker.mjs instead.
export { runCpuTask as default } from './cpu-worker-handler';
