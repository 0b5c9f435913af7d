import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/quire.mjs');

/** A `quire` child process and what it printed (stdout and stderr interleaved). */
export interface RunningQuire {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The child must not inherit vitest's loader flags, nor a QUIRE_* from the developer's shell.
  delete env['NODE_OPTIONS'];
  delete env['QUIRE_HOME'];
  delete env['QUIRE_TOKEN'];
  return env;
}

/**
 * Starts real `quire` processes (bin/quire.mjs) over one home, for the tests that need signals
 * or kills; `killAll()` in the test's cleanup leaves no child behind.
 */
export class QuireChildren {
  private readonly children: ChildProcess[] = [];

  constructor(private readonly options: { home: string; cwd: string }) {}

  start(args: string[]): RunningQuire {
    const child = spawn(process.execPath, [BIN, '--home', this.options.home, ...args], {
      cwd: this.options.cwd,
      env: childEnv(),
    });
    this.children.push(child);
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdin!.end();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once('close', (code, signal) => done({ code, signal })),
    );
    return { child, output: () => output, exited };
  }

  /** Runs one command to its end. */
  async run(args: string[]): Promise<{ code: number | null; output: string }> {
    const running = this.start(args);
    const { code } = await running.exited;
    return { code, output: running.output() };
  }

  killAll(): void {
    for (const child of this.children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}
