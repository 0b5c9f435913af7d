import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runQuireCli, type CliIo, type ServicesFactory } from './quire-cli';
import type { ProgressStream } from './progress-bar';

/**
 * The `quire` process: real streams and environment, services built from the home folder.
 * `bin/quire.mjs` calls it (through the bundle in out/cli, or through tsx in a checkout).
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const stdout = pipeEndingQuietly(process.stdout);
  const stderr = pipeEndingQuietly(process.stderr);
  const io: CliIo = {
    stdout,
    stderr,
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString('utf8');
    },
    onStop: (listener) => {
      // A second Ctrl-C while the request in flight finishes ends the process at once.
      let signalled = 0;
      const handler = (signal: NodeJS.Signals) => {
        signalled++;
        if (signalled > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
        listener();
      };
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
    // `quire ui`'s "Try the demo workspace": the embedded server, its data in the home.
    demo: async (home) => {
      const { demoLauncher } = await import('../../demo/demo-launcher');
      return demoLauncher(path.join(home.root, 'demo'), bundledCpuWorker());
    },
  };
  // Loaded on demand: `quire help` and usage errors need neither SQLite nor the engine.
  const createServices: ServicesFactory = async (home) =>
    (await import('./create-quire-services')).createQuireServices(home);
  const exitCode = await runQuireCli(argv, io, createServices);
  await Promise.all([stdout.flushed(), stderr.flushed()]);
  // The command is over: it closed the cache, released the lock and fsynced what it wrote. What
  // may still hold the event loop is the HTTP client's pacing (p-queue keeps its interval timer
  // up to two seconds after the last request) and idle keep-alive sockets; waiting for them
  // was most of an unchanged `sync --once`'s wall time.
  process.exit(exitCode);
}

/**
 * In the bundle (out/cli) the server's CPU workers run the compiled entry built beside it
 * (scripts/build-cli.mjs); from the TypeScript sources, the server's own default.
 */
function bundledCpuWorker(): { cpuWorkerFile?: string } {
  const bundled = new URL('./cpu-worker.mjs', import.meta.url);
  return existsSync(fileURLToPath(bundled)) ? { cpuWorkerFile: bundled.href } : {};
}

interface EndingStream extends ProgressStream {
  /** Resolves once everything written so far has been handed to the OS (or the reader left). */
  flushed(): Promise<void>;
}

/**
 * `quire status | head -1`: once the reader closes the pipe, writes are dropped instead of
 * ending the process with an EPIPE stack; the command itself runs to its end.
 */
function pipeEndingQuietly(stream: Writable & { isTTY?: boolean; columns?: number }): EndingStream {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    write: (chunk: string) => (closed ? true : stream.write(chunk)),
    flushed: () =>
      closed || stream.writableLength === 0
        ? Promise.resolve()
        : new Promise((resolve) => stream.write('', () => resolve())),
  };
}
