import type { DemoServerPort } from '../app/host-ports';
import type { QuireApp } from '../app/quire-app';
import type { QuireHome } from '../config/quire-home';
import type { ProgressStream } from './progress-bar';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
/** Bad command line; also `sync --once` that finished but left conflicts or problems. */
export const EXIT_USAGE = 2;
export const EXIT_PROBLEMS = 2;

/** Where the CLI reads and writes; `bin/quire.mjs` passes the process's, tests their own. */
export interface CliIo {
  readonly stdout: ProgressStream;
  readonly stderr: ProgressStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** All of stdin, for `--token -`. */
  readStdin(): Promise<string>;
  /**
   * Calls `listener` when the user asks the process to stop (SIGINT, SIGTERM); returns the
   * unsubscribe. Without it, `sync --watch` cannot be stopped and refuses to start.
   */
  onStop?(listener: () => void): () => void;
  /**
   * The demo server `quire ui` offers on its first-run screen ("Try the demo workspace"); the
   * process's composition root lends it (the engine layer does not know the server).
   */
  demo?(home: QuireHome): Promise<DemoServerPort>;
}

/** An error the user caused or can fix: printed as one line, no stack. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

export const OPTIONS = {
  home: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  server: { type: 'string' },
  token: { type: 'string' },
  folder: { type: 'string' },
  json: { type: 'boolean' },
  once: { type: 'boolean' },
  watch: { type: 'boolean' },
  interval: { type: 'string' },
  for: { type: 'string' },
  mine: { type: 'boolean' },
  theirs: { type: 'boolean' },
  merged: { type: 'string' },
  reset: { type: 'boolean' },
  all: { type: 'boolean' },
  port: { type: 'string' },
  open: { type: 'boolean' },
  space: { type: 'string' },
  subject: { type: 'string' },
  merge: { type: 'boolean' },
  approve: { type: 'boolean' },
  'request-changes': { type: 'boolean' },
  comment: { type: 'string' },
  add: { type: 'string' },
  remove: { type: 'string' },
  page: { type: 'string' },
  out: { type: 'string' },
  ref: { type: 'string' },
  body: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export type Values = {
  [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean;
};

/** The state one command run shares with its helpers. */
export interface Run {
  readonly io: CliIo;
  readonly home: QuireHome;
  readonly app: QuireApp;
  /** The demo server this run may start (`quire ui` only). */
  readonly demo?: DemoServerPort;
  /** Every secret seen in this run: scrubbed from anything printed or logged. */
  readonly secrets: Set<string>;
  out(text: string): void;
  warn(text: string): void;
}

/** One command: its options, its positional arguments; returns the exit code. */
export type CliCommand = (run: Run, values: Values, args: string[]) => Promise<number>;
