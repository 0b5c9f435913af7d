import { appendFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APP_NAME } from '../../shared/contract/quire-bridge';
import type { AppServices } from '../app/app-services';
import type { DemoServerPort } from '../app/host-ports';
import { QuireApp } from '../app/quire-app';
import { quireHome, resolveQuireHomeDir, type QuireHome } from '../config/quire-home';
import {
  CliError,
  EXIT_OK,
  EXIT_USAGE,
  OPTIONS,
  type CliCommand,
  type CliIo,
  type OptionName,
  type Run,
  type Values,
} from './cli-run';
import { changeRequests } from './commands/change-requests';
import { conflicts, resolve } from './commands/conflicts';
import { login, logout, subject } from './commands/login';
import { confirmDeletes, pause, resume } from './commands/pause';
import { drop, retry } from './commands/refused';
import { spaces } from './commands/spaces';
import { status } from './commands/status';
import { syncOnce, syncWatch } from './commands/sync';
import { importFolder } from './commands/import';
import { ui } from './commands/ui';
import { describeError } from './output/describe-error';
import { oneLine, quote, scrubSecrets } from './output/text';
import { ProgressBar } from './progress-bar';
import { USAGE } from './usage';
import { openWithSystem } from '../ui-host/open-with-system';

export { USAGE } from './usage';
export type { CliIo } from './cli-run';

export type ServicesFactory = (home: QuireHome) => AppServices | Promise<AppServices>;

/** Options each command accepts besides the global `--home` and `--help`. */
const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  login: ['server', 'token', 'folder'],
  logout: [],
  spaces: ['json'],
  sync: ['once', 'watch', 'interval'],
  status: ['json'],
  pause: ['for'],
  resume: [],
  'confirm-deletes': [],
  conflicts: ['json'],
  resolve: ['mine', 'theirs', 'merged'],
  subject: ['reset'],
  retry: ['all'],
  drop: [],
  ui: ['port', 'open'],
  cr: ['json', 'approve', 'request-changes', 'comment', 'add', 'remove', 'page', 'out', 'body'],
  import: ['space', 'subject', 'merge', 'ref'],
  help: [],
};

/** Every command but `sync`, whose progress bar the runner owns (see runQuireCli). */
const COMMANDS: Record<string, CliCommand> = {
  login,
  logout,
  spaces,
  status,
  pause,
  resume,
  'confirm-deletes': confirmDeletes,
  conflicts,
  resolve,
  subject,
  retry,
  drop,
  ui,
  cr: changeRequests,
  import: importFolder,
};

/**
 * Runs one `quire` command and returns its exit code. Never throws: every failure becomes a
 * single `quire: …` line on stderr, with any secret seen during the run scrubbed from it. The
 * commands are a presenter over the application layer (QuireApp): parsing and printing only.
 */
export async function runQuireCli(
  argv: readonly string[],
  io: CliIo,
  createServices: ServicesFactory,
): Promise<number> {
  const secrets = new Set<string>();
  const scrub = (text: string) => scrubSecrets(text, secrets);
  let home: QuireHome | undefined;
  let app: QuireApp | undefined;
  let demo: DemoServerPort | undefined;
  let command = '';
  let bar: ProgressBar | undefined;
  try {
    const { values, positionals } = parseCommandLine(argv);
    command = positionals[0] ?? '';
    if (values.help || command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    }
    checkCommand(command, values);
    home = quireHome(resolveQuireHomeDir(values.home, io.env));
    demo = command === 'ui' && io.demo ? await io.demo(home) : undefined;
    const startDemo = demo;
    app = new QuireApp({
      services: await createServices(home),
      appInfo: { name: APP_NAME, version: 'cli' },
      env: io.env,
      // How another process names this one while it holds the drain lock.
      runnerNames:
        command === 'ui'
          ? { sync: 'quire ui', watch: 'quire ui' }
          : { sync: 'quire sync --once', watch: 'quire sync --watch' },
      onSecret: (secret) => secrets.add(secret),
      // `quire ui` opens the mirror's files on this machine, as the desktop app does.
      host: {
        openPath: (target) => openWithSystem(target),
        ...(startDemo ? { startDemoServer: () => startDemo.start() } : {}),
      },
    });
    const run: Run = {
      io,
      home,
      app,
      ...(demo ? { demo } : {}),
      secrets,
      out: (text) => io.stdout.write(`${scrub(text)}\n`),
      warn: (text) => {
        bar?.clear();
        io.stderr.write(`quire: ${oneLine(scrub(text))}\n`);
      },
    };
    const args = positionals.slice(1);
    let exitCode: number;
    if (command === 'sync' && !values.watch) {
      // Space titles for the bar, filled from the cache before the sync starts.
      const titles = new Map<string, string>();
      bar = new ProgressBar(io.stderr, { spaceLabel: (id) => titles.get(id) });
      exitCode = await syncOnce(run, values, args, bar, titles);
    } else if (command === 'sync') {
      exitCode = await syncWatch(run, values, args);
    } else {
      exitCode = await COMMANDS[command]!(run, values, args);
    }
    // Closed before returning: the command is over once the cache is closed.
    await app.close();
    await demo?.close();
    return exitCode;
  } catch (error) {
    bar?.clear();
    await app?.close().catch(() => undefined);
    await demo?.close().catch(() => undefined);
    const { message, exitCode } = describeError(error);
    io.stderr.write(`quire: ${oneLine(scrub(message))}\n`);
    if (home !== undefined) await logFailure(home, command, error, scrub);
    return exitCode;
  }
}

function checkCommand(command: string, values: Values): void {
  if (command === '') throw new CliError('missing command (see `quire help`)', EXIT_USAGE);
  const allowed = COMMAND_OPTIONS[command];
  if (allowed === undefined) {
    throw new CliError(`unknown command ${quote(command)} (see \`quire help\`)`, EXIT_USAGE);
  }
  for (const name of Object.keys(values) as OptionName[]) {
    if (name !== 'home' && name !== 'help' && !allowed.includes(name)) {
      throw new CliError(`${command} does not take --${name}`, EXIT_USAGE);
    }
  }
}

function parseCommandLine(argv: readonly string[]): { values: Values; positionals: string[] } {
  // Not strict: parseArgs' own messages can echo a mistyped `--tokn=<secret>` whole; ours do not.
  const { values, positionals, tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = (OPTIONS as Record<string, { type: 'string' | 'boolean' }>)[token.name];
    if (spec === undefined) {
      throw new CliError(`unknown option ${quote(token.rawName)} (see \`quire help\`)`, EXIT_USAGE);
    }
    if (spec.type === 'boolean' && token.value !== undefined) {
      throw new CliError(`${token.rawName} takes no value`, EXIT_USAGE);
    }
    // `--server --token x` would otherwise make "--token" the server.
    const missing =
      token.value === undefined ||
      token.value === '' ||
      (!token.inlineValue && token.value.startsWith('-') && token.value !== '-');
    if (spec.type === 'string' && missing) {
      throw new CliError(`${token.rawName} needs a value`, EXIT_USAGE);
    }
  }
  return { values: values as Values, positionals };
}

/** Appends the failure, with its stack, to `<home>/logs/quire.log` when the home exists. */
async function logFailure(
  home: QuireHome,
  command: string,
  error: unknown,
  scrub: (text: string) => string,
): Promise<void> {
  try {
    if (!(await stat(home.logsDir)).isDirectory()) return;
    // A typed failure keeps what caused it: its stack says where.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
    const entry = { time: new Date().toISOString(), command, error: scrub(detail) };
    await appendFile(path.join(home.logsDir, 'quire.log'), `${JSON.stringify(entry)}\n`, {
      mode: 0o600,
    });
  } catch {
    // Logging is best effort: the error is already on stderr.
  }
}
