import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: children run from it so `--import tsx` resolves to our copy. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a child sends over IPC once it is listening (or when it cannot start). */
export type ChildMessage =
  | { type: 'ready'; url: string; info?: Record<string, number | string> }
  | { type: 'failed'; message: string };

export interface BenchChild {
  readonly name: string;
  readonly pid: number | undefined;
  readonly url: string;
  readonly info: Record<string, number | string>;
  /** SIGTERM, then SIGKILL if the child has not exited within the grace period. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let cleanupInstalled = false;
const extraCleanups: Array<() => void> = [];

/** Runs `fn` on exit, after every live child has been killed (e.g. removing temp files). */
export function onBenchExit(fn: () => void): void {
  installCleanup();
  extraCleanups.push(fn);
}

function killAll(signal: NodeJS.Signals): void {
  for (const child of live) child.kill(signal);
}

/**
 * No orphans: every child is killed when this process exits, is interrupted or terminated.
 * Children also exit on their own when the IPC channel closes (see `exitWithParent`), which
 * covers a parent killed with SIGKILL.
 */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    killAll('SIGKILL');
    for (const fn of extraCleanups.splice(0)) fn();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping ${live.size} child process(es)\n`);
      killAll('SIGKILL');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * Starts `node --import tsx <file> ...args` and resolves once it reports `ready` over IPC.
 * Rejects (after killing it) if it fails, exits or stays silent for `readyTimeoutMs`; the error
 * carries the tail of its output so a crash in server code is readable in the report.
 */
export function startChild(
  name: string,
  file: string,
  args: readonly string[],
  readyTimeoutMs = 60_000,
): Promise<BenchChild> {
  installCleanup();
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));

  let output = '';
  const keepTail = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);

  const stop = async () => {
    if (await waitForExit(child, 0)) return;
    child.kill('SIGTERM');
    if (await waitForExit(child, 5_000)) return;
    child.kill('SIGKILL');
    await waitForExit(child, 5_000);
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      cleanup();
      void stop().then(() => {
        const tail = output.trim() ? `\n--- ${name} output (tail) ---\n${output.trim()}` : '';
        reject(new Error(`${name}: ${reason}${tail}`));
      });
    };
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'failed') return fail(message.message);
      if (settled) return;
      settled = true;
      cleanup();
      resolve({
        name,
        pid: child.pid,
        url: message.url,
        info: message.info ?? {},
        stop,
      });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited before it was ready (code ${code}, signal ${signal})`);
    const onError = (error: Error) => fail(`could not start: ${error.message}`);
    const timer = setTimeout(
      () => fail(`not ready after ${readyTimeoutMs / 1000} s`),
      readyTimeoutMs,
    );
    function cleanup() {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** For child entry points: report to the parent, and exit when it goes away. */
export function exitWithParent(): void {
  process.on('disconnect', () => process.exit(0));
}

export function sendToParent(message: ChildMessage): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('This entry point is meant to be started by the benchmark');
  return new Promise((resolve) => send(message, undefined, undefined, () => resolve()));
}

/** For child entry points: report a start-up failure to the parent, then exit non-zero. */
export function failToParent(error: unknown): void {
  // The stack goes to stderr, which the parent quotes; the message names the failure.
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  if (!process.send) process.exit(1);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  void sendToParent({ type: 'failed', message }).finally(() => process.exit(1));
}
