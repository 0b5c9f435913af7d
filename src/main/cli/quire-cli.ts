import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ensureQuireHome,
  quireHome,
  readQuireConfig,
  resolveQuireHomeDir,
  writeQuireConfig,
  type QuireConfig,
  type QuireHome,
} from '../config/quire-home';
import { isInsideRoot } from '../mirror/resolve-inside';
import { DrainLock, DrainLockHeldError, drainLockPath } from '../outbox/drain-lock';
import {
  isTokenRejected,
  RemoteAuthError,
  RemoteError,
  RemoteUnavailableError,
} from '../remote/errors';
import { serverTokenKey } from '../secrets/file-secret-store';
import type { RemoteWorkspace, SyncProgress } from '../sync-ports';
import { conflictMarkers } from './conflict-markers';
import { otherMirrorWarning } from './other-mirror-warning';
import { ProgressBar, type ProgressStream } from './progress-bar';
import {
  SyncFailedError,
  UnknownConflictError,
  UnknownRefusedChangeError,
  UnknownSpaceError,
  type ConflictListing,
  type RefusedChangeListing,
  type ConflictResolutionChoice,
  type QuireEngine,
  type QuireServices,
  type SpaceList,
  type SpaceListing,
  type SpaceStatus,
  type SpaceSyncResult,
  type SyncOnceResult,
  type UnsyncedEditListing,
  type WorkingChangeRequestListing,
} from './quire-services';
import { parseServerUrl, ServerUrlError } from './server-url';
import { terminalText } from './terminal-text';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
/** Bad command line; also `sync --once` that finished but left conflicts or problems. */
export const EXIT_USAGE = 2;
export const EXIT_PROBLEMS = 2;

export const USAGE = `Usage: quire [--home <dir>] <command> [options]

Commands:
  login --server <url> --token <token> --folder <dir>
                          connect to a server (token "-" reads it from stdin; QUIRE_TOKEN works too)
  logout                  forget the token
  spaces [--json]         list the spaces, [x] marking those that sync
  spaces enable <spaceId> sync a space
  spaces disable <spaceId>
                          stop syncing a space (its folder stays)
  sync --once             push local edits of every enabled space (into its working change
                          request "Edits from <this computer>"), then pull it, once
  sync --watch [--interval <time>]
                          sync at start, push every saved change, pull every 30s (or --interval,
                          e.g. 10s, 5m); runs until Ctrl-C / SIGTERM (the request in flight finishes)
  status [--json]         state (idle, syncing, paused, offline, error, conflicts, problems), pending
                          changes (edits saved since the last sync included), files not pushed and
                          why; per space: revision, pages, last sync, its working change request
  pause [--for <time>]    stop pushing local edits (e.g. --for 30m, 2h, 1d; default: until resume);
                          edits are still recorded and pushed after
  resume                  push local edits again
  confirm-deletes <spaceId>
                          let the next sync push deletions of more than half of a space's pages
  conflicts [--json]      pages edited on both sides that could not be merged (the local file
                          was kept), and edits that won over a deletion
  conflicts show <id> [--json]
                          the conflict's versions as one text with diff3 markers (mine, the last
                          synced base, theirs) around what both sides changed; --json: the three
  subject [<text> | --reset]
                          show or set the subject of new working change requests (default
                          "Edits from <this computer>"); the open one keeps its own
  resolve <id> --mine | --theirs | --merged <file>
                          settle a conflict: keep the local file and push it (mine), take the
                          server's version (theirs), or use <file> and push it (merged)
  retry [<id> | --all]    send a change the server refused again (listed by \`quire status\`;
                          all of them without an id), once its file or the server is fixed
  drop <id>               give up a refused change: the file stays, as a local-only edit that is
                          pushed again only once you edit it
  help                    show this help

--home <dir> holds the cache, the token and the logs (default: $QUIRE_HOME, else ~/.quire).
Exit codes: 0 ok, 1 failure, 2 usage error or a sync that left conflicts or problems.`;

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
}

export type ServicesFactory = (home: QuireHome) => QuireServices | Promise<QuireServices>;

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

const OPTIONS = {
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
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = {
  [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean;
};

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
  help: [],
};

/** The state one command run shares with its helpers. */
interface Run {
  readonly io: CliIo;
  readonly home: QuireHome;
  readonly services: QuireServices;
  /** Every secret seen in this run: scrubbed from anything printed or logged. */
  readonly secrets: Set<string>;
  out(text: string): void;
  warn(text: string): void;
}

/**
 * Runs one `quire` command and returns its exit code. Never throws: every failure becomes a
 * single `quire: …` line on stderr, with any secret seen during the run scrubbed from it.
 */
export async function runQuireCli(
  argv: readonly string[],
  io: CliIo,
  createServices: ServicesFactory,
): Promise<number> {
  const secrets = new Set<string>();
  const scrub = (text: string) => scrubSecrets(text, secrets);
  let home: QuireHome | undefined;
  let command = '';
  let bar: ProgressBar | undefined;
  try {
    const { values, positionals } = parseCommandLine(argv);
    command = positionals[0] ?? '';
    if (values.help || command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    }
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
    home = quireHome(resolveQuireHomeDir(values.home, io.env));
    const run: Run = {
      io,
      home,
      services: await createServices(home),
      secrets,
      out: (text) => io.stdout.write(`${scrub(text)}\n`),
      warn: (text) => {
        bar?.clear();
        io.stderr.write(`quire: ${oneLine(scrub(text))}\n`);
      },
    };
    const args = positionals.slice(1);
    switch (command) {
      case 'login':
        return await login(run, values, args);
      case 'logout':
        return await logout(run, args);
      case 'spaces':
        return await spaces(run, values, args);
      case 'sync': {
        // Space titles for the bar, filled from the cache once the engine is open.
        const titles = new Map<string, string>();
        if (values.watch) return await syncWatch(run, values, args);
        bar = new ProgressBar(io.stderr, { spaceLabel: (id) => titles.get(id) });
        return await syncOnce(run, values, args, bar, titles);
      }
      case 'status':
        return await status(run, values, args);
      case 'pause':
        return await pause(run, values, args);
      case 'resume':
        return await resume(run, args);
      case 'confirm-deletes':
        return await confirmDeletes(run, args);
      case 'conflicts':
        return await conflicts(run, values, args);
      case 'resolve':
        return await resolve(run, values, args);
      case 'subject':
        return await subject(run, values, args);
      case 'retry':
        return await retry(run, values, args);
      case 'drop':
        return await drop(run, args);
      default:
        throw new CliError(`unknown command ${quote(command)}`, EXIT_USAGE);
    }
  } catch (error) {
    bar?.clear();
    const { message, exitCode } = describeError(error);
    io.stderr.write(`quire: ${oneLine(scrub(message))}\n`);
    if (home !== undefined) await logFailure(home, command, error, scrub);
    return exitCode;
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

// ---------------------------------------------------------------------------------------------
// login / logout

async function login(run: Run, values: Values, args: string[]): Promise<number> {
  // A stray positional may well be the token typed without --token: never echo it.
  if (args.length > 0) throw new CliError('login takes no arguments besides options', EXIT_USAGE);
  const serverArg = values.server;
  const folderArg = values.folder;
  if (serverArg === undefined) throw new CliError('login needs --server <url>', EXIT_USAGE);
  if (folderArg === undefined) throw new CliError('login needs --folder <dir>', EXIT_USAGE);
  let token = values.token ?? (run.io.env['QUIRE_TOKEN'] || undefined);
  if (token === '-') token = (await run.io.readStdin()).trim();
  if (token === undefined || token === '') {
    throw new CliError(
      'login needs --token <token> (or --token - to read it from stdin)',
      EXIT_USAGE,
    );
  }
  run.secrets.add(token);

  let server;
  try {
    server = parseServerUrl(serverArg);
  } catch (error) {
    if (!(error instanceof ServerUrlError)) throw error;
    // A URL with an `@` may carry a password: say what is wrong without repeating it.
    const shown = serverArg.includes('@') ? '' : ` ${quote(serverArg)}`;
    throw new CliError(`invalid server URL${shown}: ${error.message}`, EXIT_USAGE);
  }
  if (server.cleartext) {
    run.warn(
      `warning: ${server.origin} is plain http, so the token crosses the network unencrypted`,
    );
  }
  const folder = path.resolve(run.io.cwd, folderArg);
  if (isInsideRoot(folder, run.home.root) || isInsideRoot(run.home.root, folder)) {
    throw new CliError(
      `the mirror folder ${folder} and the Quire home ${run.home.root} must not contain each other`,
      EXIT_USAGE,
    );
  }
  const previous = await readQuireConfig(run.home);
  if (previous && (previous.server !== server.origin || previous.folder !== folder)) {
    throw new CliError(
      `${run.home.root} is set up for ${previous.server} and ${previous.folder}; ` +
        'log in with the same server and folder, or use another --home',
    );
  }

  const remote = run.services.connect(server.origin, token, { quick: true });
  const otherMirror = await otherMirrorWarning({
    folder,
    homeRoot: run.home.root,
    newHome: previous === undefined,
    env: run.io.env,
  });
  let user;
  try {
    user = await remote.whoAmI();
  } catch (error) {
    throw loginError(error, server.origin);
  }
  await createFolder(folder);
  await ensureQuireHome(run.home);
  await run.services.secrets.set(serverTokenKey(server.origin), token);
  const config: QuireConfig = {
    // A subject chosen with `quire subject` survives logging in again.
    ...(previous?.changeRequestSubject !== undefined
      ? { changeRequestSubject: previous.changeRequestSubject }
      : {}),
    server: server.origin,
    folder,
    user: {
      id: user.id,
      displayName: user.displayName,
      ...(user.email ? { email: user.email } : {}),
    },
  };
  await writeQuireConfig(run.home, config);

  const who = user.email ? `${user.displayName} <${user.email}>` : user.displayName;
  run.out(`Logged in to ${server.origin} as ${terminalText(who)}.`);
  run.out(`Mirror folder: ${folder}`);
  if (otherMirror !== undefined) run.warn(`warning: ${otherMirror}`);

  const engine = await run.services.openEngine({ config, remote });
  try {
    let listed: SpaceList;
    try {
      // The engine's first listing enables every space when there are fewer than 20.
      listed = await engine.refreshSpaces();
    } catch (error) {
      throw new CliError(
        `logged in, but listing the spaces failed: ${describeError(error).message}`,
      );
    }
    for (const error of listed.errors) run.warn(`warning: ${error}`);
    const enabled = listed.spaces.filter((s) => s.enabled).length;
    run.out(`${plural(listed.spaces.length, 'space')}, ${enabled} enabled.`);
    run.out(
      enabled > 0
        ? 'Run `quire sync --once` to pull them.'
        : 'Pick spaces with `quire spaces` and `quire spaces enable <spaceId>`.',
    );
  } finally {
    await engine.close();
  }
  return EXIT_OK;
}

/** The three failures a user can act on each get their own message. */
function loginError(error: unknown, server: string): Error {
  if (error instanceof RemoteAuthError) return new CliError('the server rejected the token');
  if (error instanceof RemoteUnavailableError) {
    return new CliError(`cannot reach server ${server}: ${error.message}`);
  }
  // It answered, but not as a Quire (or GitBook-compatible) API does: most likely the wrong URL.
  if (error instanceof RemoteError) {
    return new CliError(`${server} does not answer like a Quire server: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function createFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
    if (!(await stat(folder)).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`cannot use ${folder} as the mirror folder (${reason})`);
  }
}

async function logout(run: Run, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('logout takes no arguments', EXIT_USAGE);
  const config = await readQuireConfig(run.home);
  if (config === undefined) {
    run.out('Not logged in.');
    return EXIT_OK;
  }
  await run.services.secrets.delete(serverTokenKey(config.server));
  // The configuration and cache stay: pending local edits live there, and `quire status` still works.
  run.out(`Logged out of ${config.server}. The mirror folder ${config.folder} is left as it is.`);
  return EXIT_OK;
}

/** The API's limit for a change request subject. */
const MAX_SUBJECT_LENGTH = 100;

async function subject(run: Run, values: Values, args: string[]): Promise<number> {
  const config = await readQuireConfig(run.home);
  if (config === undefined) throw new CliError('not logged in (run `quire login` first)');
  if (args.length > 1) throw new CliError('subject takes one argument (quote it)', EXIT_USAGE);
  const [text] = args;
  if (text === undefined && !values.reset) {
    run.out(config.changeRequestSubject ?? `Edits from ${hostname()} (the default)`);
    return EXIT_OK;
  }
  if (text !== undefined && values.reset) {
    throw new CliError('give a subject or --reset, not both', EXIT_USAGE);
  }
  const { changeRequestSubject: _old, ...rest } = config;
  if (text === undefined) {
    await writeQuireConfig(run.home, rest);
    run.out(`New working change requests will be titled "Edits from ${hostname()}".`);
    return EXIT_OK;
  }
  const trimmed = text.trim();
  if (trimmed === '' || /[\r\n]/.test(trimmed) || trimmed.length > MAX_SUBJECT_LENGTH) {
    throw new CliError(
      `a subject is one line of 1 to ${MAX_SUBJECT_LENGTH} characters`,
      EXIT_USAGE,
    );
  }
  await writeQuireConfig(run.home, { ...rest, changeRequestSubject: trimmed });
  run.out(
    `New working change requests will be titled "${trimmed}". One already open keeps its subject (rename it on the server if you like: Quire keeps using it).`,
  );
  return EXIT_OK;
}

// ---------------------------------------------------------------------------------------------
// spaces / sync / status

async function spaces(run: Run, values: Values, args: string[]): Promise<number> {
  const [action, spaceId, ...rest] = args;
  if (action === undefined) {
    const { spaces: listed, errors } = await withEngine(run, { needsToken: true }, (engine) =>
      engine.refreshSpaces(),
    );
    for (const error of errors) run.warn(`warning: ${error}`);
    if (values.json) {
      run.out(JSON.stringify(listed.map(spaceListingJson), null, 2));
    } else {
      for (const space of listed) {
        const title = terminalText(`${space.emoji ? `${space.emoji} ` : ''}${space.title}`);
        const where = terminalText(space.organization);
        run.out(`${space.enabled ? '[x]' : '[ ]'} ${terminalText(space.id)}  ${title}  (${where})`);
      }
      const enabled = listed.filter((s) => s.enabled).length;
      run.out(`${enabled} of ${plural(listed.length, 'space')} enabled.`);
    }
    return EXIT_OK;
  }
  if (action !== 'enable' && action !== 'disable') {
    throw new CliError(`unknown spaces action ${quote(action)} (enable or disable)`, EXIT_USAGE);
  }
  if (spaceId === undefined || rest.length > 0) {
    throw new CliError(`usage: quire spaces ${action} <spaceId>`, EXIT_USAGE);
  }
  if (values.json) throw new CliError(`spaces ${action} does not take --json`, EXIT_USAGE);
  const enable = action === 'enable';
  await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      await engine.setSpaceEnabled(spaceId, enable);
    } catch (error) {
      if (!(error instanceof UnknownSpaceError)) throw error;
      throw new CliError(`no space ${quote(spaceId)} (\`quire spaces\` lists them)`);
    }
  });
  run.out(
    enable
      ? `Enabled ${spaceId}. Run \`quire sync --once\` to pull it.`
      : `Disabled ${spaceId}. Its folder is left as it is.`,
  );
  return EXIT_OK;
}

async function syncOnce(
  run: Run,
  values: Values,
  args: string[],
  bar: ProgressBar,
  titles: Map<string, string>,
): Promise<number> {
  if (args.length > 0) throw new CliError('sync takes no arguments', EXIT_USAGE);
  if (!values.once) {
    throw new CliError('use `quire sync --once` or `quire sync --watch`', EXIT_USAGE);
  }
  if (values.interval !== undefined) throw new CliError('--interval goes with --watch', EXIT_USAGE);
  const onProgress = (progress: SyncProgress) => bar.update(progress);
  const { result, pauseState } = await withEngine(run, { needsToken: true, onProgress }, (engine) =>
    withDrainLock(run, 'quire sync --once', async () => {
      for (const space of await engine.status()) titles.set(space.id, space.title);
      const synced: SyncOnceResult = await engine.syncOnce();
      return { result: synced, pauseState: await engine.pauseState() };
    }),
  );
  bar.clear();
  let conflicts = 0;
  let problems = result.errors.length;
  for (const space of result.spaces) {
    conflicts += space.conflicts;
    problems += space.problems.length;
    const conflictNote = space.conflicts > 0 ? `, ${plural(space.conflicts, 'conflict')}` : '';
    run.out(`${terminalText(space.title)} (${space.id}): ${outcomeText(space)}${conflictNote}`);
    if (space.changeRequest) run.out(`  ${changeRequestText(space.changeRequest)}`);
    for (const problem of space.problems) run.out(`  problem: ${terminalText(problem)}`);
  }
  for (const error of result.errors) run.out(`problem: ${terminalText(error)}`);
  if (result.spaces.length === 0) {
    run.out('No space is enabled: `quire spaces enable <spaceId>` picks one.');
  }
  if (pauseState.paused) {
    const until = pauseState.until
      ? `until ${pauseState.until.toISOString()}`
      : 'until `quire resume`';
    run.out(`Pushing is paused ${until}: local edits were recorded, not pushed.`);
  }
  if (conflicts + problems > 0) {
    run.warn(
      `sync finished with ${plural(conflicts, 'conflict')} and ${plural(problems, 'problem')}`,
    );
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

/**
 * `sync --watch`: one line per run that did something and per change of the overall state on
 * stdout, warnings on stderr; exit 0 after a clean stop (SIGINT/SIGTERM: the request in flight is
 * answered and recorded, nothing after it is sent); exit 1 once the server rejects the token.
 */
async function syncWatch(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('sync takes no arguments', EXIT_USAGE);
  if (values.once) throw new CliError('sync takes --once or --watch, not both', EXIT_USAGE);
  let intervalMs: number | undefined;
  if (values.interval !== undefined) {
    intervalMs = parseDuration(values.interval);
    if (intervalMs === undefined) {
      throw new CliError(
        `--interval takes a duration like 30s, 5m or 1h, not ${quote(values.interval)}`,
        EXIT_USAGE,
      );
    }
  }
  const onStop = run.io.onStop;
  if (onStop === undefined) throw new CliError('sync --watch needs a terminal to stop it from');
  const stop = new AbortController();
  let stopRequested = false;
  const unsubscribe = onStop(() => {
    if (!stopRequested) run.out('Stopping after the current request…');
    stopRequested = true;
    stop.abort();
  });
  try {
    const final = await withEngine(
      run,
      { needsToken: true, watching: true },
      (engine, connection) =>
        withDrainLock(run, 'quire sync --watch', async () => {
          run.out(`Watching ${connection.config.folder} (Ctrl-C stops).`);
          let lastState = '';
          const watching = engine.watch({
            signal: stop.signal,
            ...(intervalMs !== undefined ? { intervalMs } : {}),
            onRun: (summary) => run.out(summary),
            onStatus: (status) => {
              // Runs say what they did (onRun); only settled states are worth a line.
              // A rejected token ends the command with its own message (below).
              if (status.state === 'syncing' || status.tokenRejected) return;
              const line = `${status.state}${status.pending > 0 ? `, ${plural(status.pending, 'change')} pending` : ''}`;
              if (line === lastState) return;
              lastState = line;
              run.out(`status: ${line}`);
              if (status.state === 'error' && status.error) run.warn(status.error);
            },
          });
          return watching.catch((error: unknown) => {
            if (!isTokenRejected(error)) throw error;
            const server = connection.config.server;
            throw new CliError(
              `the server ${server} rejected the token (revoked or expired): run \`quire login\` again; nothing syncs until then`,
            );
          });
        }),
    );
    run.out(
      `Stopped${final.pending > 0 ? ` with ${plural(final.pending, 'change')} still queued (pushed by the next sync)` : ''}.`,
    );
  } finally {
    unsubscribe();
  }
  return EXIT_OK;
}

/** Runs `task` holding the home's drain lock; refuses when another live process holds it. */
async function withDrainLock<T>(run: Run, command: string, task: () => Promise<T>): Promise<T> {
  let lock: DrainLock;
  try {
    lock = await DrainLock.acquire(drainLockPath(run.home.root), { command });
  } catch (error) {
    if (error instanceof DrainLockHeldError) throw new CliError(error.message);
    throw error;
  }
  try {
    return await task();
  } finally {
    await lock.release();
  }
}

/** `30m`, `2h`, `1d`, `45s` → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  const ms = Number(match[1]) * unit;
  return ms > 0 ? ms : undefined;
}

async function pause(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('pause takes no arguments', EXIT_USAGE);
  let until: Date | undefined;
  if (values.for !== undefined) {
    const ms = parseDuration(values.for);
    if (ms === undefined) {
      throw new CliError(
        `--for takes a duration like 30m, 2h or 1d, not ${quote(values.for)}`,
        EXIT_USAGE,
      );
    }
    until = new Date(Date.now() + ms);
  }
  await withEngine(run, { needsToken: false }, (engine) => engine.pause(until));
  run.out(
    until === undefined
      ? 'Pushing is paused until `quire resume`; local edits are still recorded.'
      : `Pushing is paused until ${until.toISOString()}; local edits are still recorded.`,
  );
  return EXIT_OK;
}

async function resume(run: Run, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('resume takes no arguments', EXIT_USAGE);
  await withEngine(run, { needsToken: false }, (engine) => engine.resume());
  run.out('Pushing resumed: the next sync pushes the recorded local edits.');
  return EXIT_OK;
}

async function confirmDeletes(run: Run, args: string[]): Promise<number> {
  const [spaceId, ...rest] = args;
  if (spaceId === undefined || rest.length > 0) {
    throw new CliError('usage: quire confirm-deletes <spaceId>', EXIT_USAGE);
  }
  await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      await engine.confirmDeletes(spaceId);
    } catch (error) {
      if (error instanceof UnknownSpaceError) {
        throw new CliError(`no space ${quote(spaceId)} (see \`quire status\`)`);
      }
      throw error;
    }
  });
  run.out(`The next sync pushes the local deletions of ${spaceId}.`);
  return EXIT_OK;
}

async function status(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length > 0) throw new CliError('status takes no arguments', EXIT_USAGE);
  const { config, loggedIn, spaces, model, runner, refused, unsynced } = await withEngine(
    run,
    { needsToken: false },
    async (engine, connection) => ({
      ...connection,
      spaces: await engine.status(),
      model: await engine.syncStatus(),
      refused: await engine.refusedChanges(),
      // Saved since the last sync and not recorded yet: the next sync pushes them.
      unsynced: await engine.unsyncedEdits(),
      // The process syncing this home right now (`sync --watch`, the app), if any.
      runner: await DrainLock.holder(drainLockPath(run.home.root)),
    }),
  );
  const unsyncedIn = (spaceId: string) => unsynced.filter((edit) => edit.spaceId === spaceId);
  const pending = model.pending + unsynced.length;
  if (values.json) {
    const modelSpaces = new Map(model.spaces.map((space) => [space.id, space]));
    const report = {
      server: config.server,
      folder: config.folder,
      user: config.user,
      loggedIn,
      state: model.state,
      pending,
      lastSync: model.lastSync,
      paused: model.paused,
      pausedUntil: model.pausedUntil,
      conflicts: model.conflicts,
      error: model.error,
      runner:
        runner === undefined
          ? null
          : {
              pid: runner.pid,
              host: runner.host,
              command: runner.command,
              since: runner.startedAt,
            },
      problems: model.problems.map((problem) => ({
        path: problem.path,
        message: problem.message,
        spaceId: problem.spaceId,
        kind: problem.kind,
      })),
      refused: refused.map(refusedJson),
      unsynced: unsynced.map((edit) => ({
        spaceId: edit.spaceId,
        path: edit.path,
        change: edit.change,
        ...(edit.from !== undefined ? { from: edit.from } : {}),
      })),
      spaces: spaces.map((space) => ({
        ...spaceStatusJson(space),
        pending: (modelSpaces.get(space.id)?.pending ?? 0) + unsyncedIn(space.id).length,
        conflicts: modelSpaces.get(space.id)?.conflicts ?? 0,
      })),
    };
    run.out(JSON.stringify(report, null, 2));
    return EXIT_OK;
  }
  run.out(`${config.server} → ${config.folder}${loggedIn ? '' : ' (logged out)'}`);
  const overall = [
    model.state,
    pending > 0 ? `${plural(pending, 'change')} pending` : undefined,
    model.conflicts > 0 ? plural(model.conflicts, 'conflict') : undefined,
    model.pausedUntil ? `paused until ${model.pausedUntil}` : undefined,
    runner ? `${runner.command} running (pid ${runner.pid})` : undefined,
  ].filter((fact) => fact !== undefined);
  // Space errors and problems are listed under each space below.
  run.out(`Status: ${overall.join(', ')}`);
  for (const space of spaces) {
    const facts = [
      space.state,
      space.revision ? `revision ${space.revision}` : 'never pulled',
      plural(space.pages, 'page'),
      space.lastSync ? `last sync ${space.lastSync}` : undefined,
    ].filter((fact) => fact !== undefined);
    run.out(`${terminalText(space.title)} (${space.id}): ${facts.join(', ')}`);
    if (space.changeRequest) run.out(`  ${changeRequestText(space.changeRequest)}`);
    for (const edit of unsyncedIn(space.id)) run.out(`  ${unsyncedText(edit)}`);
    for (const error of space.errors) run.out(`  ${errorLabel(space)}: ${terminalText(error)}`);
  }
  if (spaces.length === 0) run.out('No spaces yet: `quire spaces` fetches the list.');
  for (const change of refused) {
    run.out(
      `Refused #${change.id} ${change.kind} ${terminalText(change.path)}: ${terminalText(change.reason)}`,
    );
    for (const held of change.holds) run.out(`  holds back ${terminalText(held)}`);
  }
  if (refused.length > 0) {
    run.out('`quire retry <id>` sends a refused change again; `quire drop <id>` keeps it local.');
  }
  return EXIT_OK;
}

/** `change request #4 "Edits from laptop": http://…`: where a space's local edits go. */
function changeRequestText(changeRequest: WorkingChangeRequestListing): string {
  const where = changeRequest.url === null ? '' : `: ${changeRequest.url}`;
  return terminalText(`change request #${changeRequest.number} "${changeRequest.subject}"${where}`);
}

function unsyncedText(edit: UnsyncedEditListing): string {
  const what =
    edit.change === 'moved' && edit.from !== undefined ? `moved from ${edit.from}` : edit.change;
  return `not yet synced: ${terminalText(edit.path)} (${terminalText(what)})`;
}

/** A space that failed lists its error; any other lists problems (files not pushed, not written). */
function errorLabel(space: SpaceStatus): string {
  return space.state === 'error' ? 'error' : 'problem';
}

function outcomeText(space: SpaceSyncResult): string {
  const pushed = space.pushed ? `${plural(space.pushed, 'change')} pushed, ` : '';
  return `${pushed}${pullText(space)}`;
}

function pullText(space: SpaceSyncResult): string {
  switch (space.outcome) {
    case 'pulled': {
      const removed =
        space.filesRemoved > 0 ? `, ${plural(space.filesRemoved, 'file')} removed` : '';
      const written = `${plural(space.filesWritten, 'file')} written`;
      return `pulled revision ${space.revision ?? '?'}, ${written}${removed}`;
    }
    case 'pushed':
      return 'up to date';
    case 'unchanged':
      return 'up to date';
    case 'removed':
      return 'removed on the server; its unedited files were removed';
    case 'failed':
      return 'failed';
  }
}

/** Field by field, so the JSON stays the documented shape whatever the engine adds. */
function spaceListingJson(space: SpaceListing) {
  return {
    id: space.id,
    title: space.title,
    ...(space.emoji === undefined ? {} : { emoji: space.emoji }),
    organizationId: space.organizationId,
    organization: space.organization,
    folder: space.folder,
    enabled: space.enabled,
  };
}

function spaceStatusJson(space: SpaceStatus) {
  return {
    id: space.id,
    title: space.title,
    organization: space.organization,
    folder: space.folder,
    enabled: space.enabled,
    state: space.state,
    revision: space.revision,
    remoteRevision: space.remoteRevision,
    pages: space.pages,
    lastSync: space.lastSync,
    errors: [...space.errors],
    changeRequest: space.changeRequest
      ? {
          number: space.changeRequest.number,
          subject: space.changeRequest.subject,
          url: space.changeRequest.url,
        }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// conflicts / resolve

async function conflicts(run: Run, values: Values, args: string[]): Promise<number> {
  if (args[0] === 'show') return showConflict(run, values, args.slice(1));
  if (args.length > 0) {
    throw new CliError('conflicts takes no arguments besides `show <id>`', EXIT_USAGE);
  }
  const listed = await withEngine(run, { needsToken: false }, (engine) => engine.conflicts());
  if (values.json) {
    run.out(JSON.stringify(listed.map(conflictJson), null, 2));
    return EXIT_OK;
  }
  for (const conflict of listed) {
    const page = conflict.pageTitle ? ` "${terminalText(conflict.pageTitle)}"` : '';
    run.out(
      `#${conflict.id} ${conflict.kind}: ${terminalText(conflict.spaceTitle)}${page} ${terminalText(conflict.file)}`,
    );
    run.out(`  ${terminalText(conflict.message)}`);
  }
  run.out(
    listed.length === 0
      ? 'No conflicts.'
      : `${plural(listed.length, 'conflict')}: \`quire resolve <id> --mine | --theirs | --merged <file>\` settles one.`,
  );
  return EXIT_OK;
}

/** A conflict's id as typed (`quire conflicts` lists them). */
function conflictId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) {
    throw new CliError(`no conflict ${quote(text)} (\`quire conflicts\` lists them)`);
  }
  return Number(text);
}

/**
 * `quire conflicts show <id>`: what both sides did, so that `--merged` is not written blind. The
 * text view is one file with diff3 markers, ready to edit into the merged version.
 */
async function showConflict(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length !== 1)
    throw new CliError('usage: quire conflicts show <id> [--json]', EXIT_USAGE);
  const id = conflictId(args[0]!);
  const versions = await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      return await engine.conflictVersions(id);
    } catch (error) {
      if (!(error instanceof UnknownConflictError)) throw error;
      throw new CliError(`${error.message} (\`quire conflicts\` lists them)`);
    }
  });
  const { conflict } = versions;
  if (values.json) {
    run.out(
      JSON.stringify(
        {
          ...conflictJson(conflict),
          binary: versions.binary,
          base: versions.base,
          mine: versions.mine,
          theirs: versions.theirs,
        },
        null,
        2,
      ),
    );
    return EXIT_OK;
  }
  const page = conflict.pageTitle ? ` "${terminalText(conflict.pageTitle)}"` : '';
  run.out(`#${conflict.id} ${conflict.kind}: ${terminalText(conflict.spaceTitle)}${page}`);
  run.out(`  ${terminalText(conflict.message)}`);
  if (versions.binary) {
    run.out(
      `${terminalText(conflict.file)} is not text: compare it with the server's copy, then resolve with --mine or --theirs.`,
    );
    return EXIT_OK;
  }
  const marked = conflictMarkers(versions.base, versions.mine, versions.theirs, {
    mine: `mine (${conflict.file}${versions.mine === null ? ', deleted' : ''})`,
    theirs: `theirs (the server${versions.theirs === null ? ', deleted' : ''})`,
  });
  run.out(
    `${plural(marked.regions, 'region')} changed on both sides, marked below; ` +
      'save the text without markers to a file and run ' +
      `\`quire resolve ${conflict.id} --merged <file>\`.`,
  );
  // The page text is printed as it is (not through terminalText): it is what the user edits.
  run.io.stdout.write(marked.text);
  return EXIT_OK;
}

async function resolve(run: Run, values: Values, args: string[]): Promise<number> {
  const usage = 'usage: quire resolve <id> --mine | --theirs | --merged <file>';
  const [idText, ...rest] = args;
  if (idText === undefined || rest.length > 0) throw new CliError(usage, EXIT_USAGE);
  const modes = (['mine', 'theirs', 'merged'] as const).filter(
    (mode) => values[mode] !== undefined,
  );
  if (modes.length !== 1) {
    throw new CliError(
      modes.length === 0
        ? `resolve needs one of --mine, --theirs or --merged <file> (${usage})`
        : `resolve takes only one of --mine, --theirs and --merged (${usage})`,
      EXIT_USAGE,
    );
  }
  const mode = modes[0]!;
  const id = conflictId(idText);
  let request: ConflictResolutionChoice = { mode: mode === 'merged' ? 'mine' : mode };
  if (mode === 'merged') {
    const file = path.resolve(run.io.cwd, values.merged!);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new CliError(`cannot read the merged file ${file} (${reason})`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new CliError(`the merged file ${file} is not UTF-8 text; nothing was changed`);
    }
    request = { mode: 'merged', text };
  }
  const resolved = await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      return await engine.resolveConflict(id, request);
    } catch (error) {
      if (error instanceof UnknownConflictError) {
        throw new CliError(
          `${error.message} (\`quire conflicts\` lists them); nothing was changed`,
        );
      }
      throw error;
    }
  });
  run.out(`Resolved conflict #${id} (${terminalText(resolved.file)}) with --${mode}.`);
  // Taking theirs writes the server's version: nothing of this device's is pushed for it.
  run.out(
    mode === 'theirs'
      ? "The file now holds the server's version and your edit of it is dropped (a sync takes it back out of the working change request if it had reached it)."
      : 'The next `quire sync --once` pushes what this queued.',
  );
  return EXIT_OK;
}

// retry / drop

/** A refused change's id as typed (`quire status` lists them). */
function refusedId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) {
    throw new CliError(`no refused change ${quote(text)} (\`quire status\` lists them)`);
  }
  return Number(text);
}

async function retry(run: Run, values: Values, args: string[]): Promise<number> {
  const usage = 'usage: quire retry [<id> | --all]';
  // Without an id (or with --all) every refused change is queued again: retrying is harmless.
  if (args.length > 1 || (args.length === 1 && values.all === true)) {
    throw new CliError(usage, EXIT_USAGE);
  }
  const id = args[0] === undefined ? undefined : refusedId(args[0]);
  const count = await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      return await engine.retryRefused(id);
    } catch (error) {
      if (!(error instanceof UnknownRefusedChangeError)) throw error;
      throw new CliError(`${error.message} (\`quire status\` lists them); nothing was changed`);
    }
  });
  run.out(
    count === 0
      ? 'No refused change to retry.'
      : `Queued ${plural(count, 'refused change')} again; the next \`quire sync --once\` sends ${count === 1 ? 'it' : 'them'}.`,
  );
  return EXIT_OK;
}

async function drop(run: Run, args: string[]): Promise<number> {
  if (args.length !== 1) throw new CliError('usage: quire drop <id>', EXIT_USAGE);
  const id = refusedId(args[0]!);
  const dropped = await withEngine(run, { needsToken: false }, async (engine) => {
    try {
      return await engine.dropRefused(id);
    } catch (error) {
      if (!(error instanceof UnknownRefusedChangeError)) throw error;
      throw new CliError(`${error.message} (\`quire status\` lists them); nothing was changed`);
    }
  });
  run.out(
    `Dropped refused change #${id}: ${terminalText(dropped.path)} stays as it is, a local-only edit (pushed again once you edit it).`,
  );
  return EXIT_OK;
}

function refusedJson(change: RefusedChangeListing) {
  return {
    id: change.id,
    spaceId: change.spaceId,
    kind: change.kind,
    path: change.path,
    reason: change.reason,
    holds: [...change.holds],
  };
}

function conflictJson(conflict: ConflictListing) {
  return {
    id: conflict.id,
    spaceId: conflict.spaceId,
    spaceTitle: conflict.spaceTitle,
    pageId: conflict.pageId,
    pageTitle: conflict.pageTitle,
    path: conflict.path,
    file: conflict.file,
    kind: conflict.kind,
    message: conflict.message,
    createdAt: conflict.createdAt,
  };
}

// ---------------------------------------------------------------------------------------------
// shared plumbing

interface Connection {
  readonly config: QuireConfig;
  readonly loggedIn: boolean;
}

/**
 * Opens the engine for the saved connection, runs `task`, closes it. Commands that work from the
 * cache alone (`status`, enabling a space) run logged out too, with a remote that refuses.
 */
async function withEngine<T>(
  run: Run,
  options: {
    needsToken: boolean;
    onProgress?: (progress: SyncProgress) => void;
    watching?: boolean;
  },
  task: (engine: QuireEngine, connection: Connection) => Promise<T>,
): Promise<T> {
  const config = await readQuireConfig(run.home);
  if (config === undefined) {
    throw new CliError(
      `not logged in (no ${run.home.configFile}): run \`quire login --server <url> --token <token> --folder <dir>\``,
    );
  }
  const token = await run.services.secrets.get(serverTokenKey(config.server));
  if (token !== undefined) run.secrets.add(token);
  if (token === undefined && options.needsToken) {
    throw new CliError(`not logged in to ${config.server}: run \`quire login\` again`);
  }
  const remote =
    token === undefined ? loggedOutRemote() : run.services.connect(config.server, token);
  const engine = await run.services.openEngine({
    config,
    remote,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.watching ? { watching: true } : {}),
  });
  try {
    return await task(engine, { config, loggedIn: token !== undefined });
  } finally {
    await engine.close();
  }
}

function loggedOutRemote(): RemoteWorkspace {
  const refuse = () => Promise.reject(new CliError('not logged in: run `quire login` again'));
  return {
    whoAmI: refuse,
    listOrganizations: refuse,
    listSpaces: refuse,
    getRevision: refuse,
    downloadFile: refuse,
  };
}

function describeError(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof RemoteAuthError) {
    return {
      message: 'the server rejected the token: run `quire login` again',
      exitCode: EXIT_FAILURE,
    };
  }
  if (error instanceof RemoteUnavailableError) {
    return { message: `cannot reach server: ${error.message}`, exitCode: EXIT_FAILURE };
  }
  if (error instanceof SyncFailedError) return describeSyncFailure(error);
  // The stack, if any, goes to the log; the user gets the message.
  if (error instanceof Error) return { message: error.message, exitCode: EXIT_FAILURE };
  return { message: `unexpected error: ${String(error)}`, exitCode: EXIT_FAILURE };
}

/** A sync that pulled nothing: the token and the network get the same words as anywhere else. */
function describeSyncFailure(failure: SyncFailedError): { message: string; exitCode: number } {
  const { kind, message } = failure.error;
  if (kind === 'token-rejected' || kind === 'forbidden') {
    return describeError(new RemoteAuthError(message));
  }
  if (kind === 'offline' || kind === 'rate-limited') {
    return { message: `cannot reach server: ${message}`, exitCode: EXIT_FAILURE };
  }
  return { message: failure.message, exitCode: EXIT_FAILURE };
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
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const entry = { time: new Date().toISOString(), command, error: scrub(detail) };
    await appendFile(path.join(home.logsDir, 'quire.log'), `${JSON.stringify(entry)}\n`, {
      mode: 0o600,
    });
  } catch {
    // Logging is best effort: the error is already on stderr.
  }
}

function scrubSecrets(text: string, secrets: ReadonlySet<string>): string {
  let result = text;
  for (const secret of secrets) if (secret !== '') result = result.split(secret).join('***');
  return result;
}

function oneLine(text: string): string {
  return terminalText(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

function quote(text: string): string {
  return JSON.stringify(text);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
