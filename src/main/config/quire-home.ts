import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { fsyncDirectory } from '../mirror/atomic-write';

/**
 * The engine's state directory ("home"): everything Quire keeps besides the mirror itself. The
 * mirror folder receives only the Markdown tree, so the cache, the token and the logs live here:
 *
 *   <home>/config.json   server URL, user, mirror folder (never the token)
 *   <home>/secrets.json  the token (see FileSecretStore), 0600
 *   <home>/cache.db      the sync cache (SQLite)
 *   <home>/logs/         log files
 */
export interface QuireHome {
  readonly root: string;
  readonly configFile: string;
  readonly secretsFile: string;
  readonly cacheFile: string;
  readonly logsDir: string;
}

/** What `quire login` records about the connection. The token is a secret and is not in here. */
export interface QuireConfig {
  /** Server origin without `/v1`, e.g. `https://docs.example.com`. */
  readonly server: string;
  readonly user: { readonly id: string; readonly displayName: string; readonly email?: string };
  /** Absolute path of the mirror folder. */
  readonly folder: string;
  /** Subject of new working change requests (`quire subject`); default "Edits from <host>". */
  readonly changeRequestSubject?: string;
  /** How often the background sync pulls (ms); default 30 s. */
  readonly syncIntervalMs?: number;
  /** Extra ignore patterns for the space folders (see createIgnoreRules); default none. */
  readonly ignorePatterns?: readonly string[];
}

export class QuireConfigError extends Error {
  override readonly name = 'QuireConfigError';
}

/** Owner-only: other local users must not read the cache or list which secrets exist. */
const HOME_MODE = 0o700;
const CONFIG_MODE = 0o600;

/** `--home`, else `QUIRE_HOME`, else `~/.quire`; always absolute. */
export function resolveQuireHomeDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  userHome: string = homedir(),
): string {
  const chosen = flag ?? (env['QUIRE_HOME'] || undefined) ?? path.join(userHome, '.quire');
  return path.resolve(chosen);
}

export function quireHome(root: string): QuireHome {
  const absolute = path.resolve(root);
  return {
    root: absolute,
    configFile: path.join(absolute, 'config.json'),
    secretsFile: path.join(absolute, 'secrets.json'),
    cacheFile: path.join(absolute, 'cache.db'),
    logsDir: path.join(absolute, 'logs'),
  };
}

/**
 * Creates the home and its `logs/` folder with mode 0700. An existing folder keeps its mode: the
 * user may manage it, and the files holding secrets carry their own 0600.
 */
export async function ensureQuireHome(home: QuireHome): Promise<QuireHome> {
  for (const dir of [home.root, home.logsDir]) {
    const created = await mkdir(dir, { recursive: true, mode: HOME_MODE });
    // mkdir's mode is filtered by the umask; the folders we create are exactly 0700.
    if (created !== undefined) await chmod(dir, HOME_MODE);
  }
  return home;
}

/** The saved connection, or undefined before the first login. */
export async function readQuireConfig(home: QuireHome): Promise<QuireConfig | undefined> {
  let text: string;
  try {
    text = await readFile(home.configFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseQuireConfig(text, home.configFile);
}

export async function writeQuireConfig(home: QuireHome, config: QuireConfig): Promise<void> {
  await ensureQuireHome(home);
  const body: QuireConfig = {
    server: config.server,
    user: {
      id: config.user.id,
      displayName: config.user.displayName,
      ...(config.user.email === undefined ? {} : { email: config.user.email }),
    },
    folder: config.folder,
    ...(config.changeRequestSubject === undefined
      ? {}
      : { changeRequestSubject: config.changeRequestSubject }),
    ...(config.syncIntervalMs === undefined ? {} : { syncIntervalMs: config.syncIntervalMs }),
    ...(config.ignorePatterns === undefined ? {} : { ignorePatterns: [...config.ignorePatterns] }),
  };
  await writeFileAtomic(home.configFile, `${JSON.stringify(body, null, 2)}\n`, CONFIG_MODE);
}

export function parseQuireConfig(text: string, file: string): QuireConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new QuireConfigError(`${file} is not valid JSON`);
  }
  const config = value as Partial<QuireConfig> | null;
  const user = config?.user as Partial<QuireConfig['user']> | undefined;
  if (
    typeof config?.server !== 'string' ||
    typeof config.folder !== 'string' ||
    typeof user?.id !== 'string' ||
    typeof user.displayName !== 'string' ||
    (user.email !== undefined && typeof user.email !== 'string') ||
    (config.changeRequestSubject !== undefined &&
      typeof config.changeRequestSubject !== 'string') ||
    (config.syncIntervalMs !== undefined && !isInterval(config.syncIntervalMs)) ||
    (config.ignorePatterns !== undefined && !isTextList(config.ignorePatterns))
  ) {
    throw new QuireConfigError(`${file} is not a Quire configuration`);
  }
  return {
    server: config.server,
    folder: config.folder,
    user: {
      id: user.id,
      displayName: user.displayName,
      ...(user.email === undefined ? {} : { email: user.email }),
    },
    ...(config.changeRequestSubject === undefined
      ? {}
      : { changeRequestSubject: config.changeRequestSubject }),
    ...(config.syncIntervalMs === undefined ? {} : { syncIntervalMs: config.syncIntervalMs }),
    ...(config.ignorePatterns === undefined ? {} : { ignorePatterns: config.ignorePatterns }),
  };
}

function isTextList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isInterval(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Temp file opened with O_EXCL and the final mode, fsynced, renamed over the target, folder
 * fsynced: a crash leaves the old or the new file, and the content is never readable by others,
 * not even for the instant between creation and a later chmod.
 */
export async function writeFileAtomic(file: string, data: string, mode: number): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      // The umask can only remove bits; chmod makes the mode exact whatever the umask.
      await handle.chmod(mode);
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(path.dirname(file));
}
