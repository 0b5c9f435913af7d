import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quireHome, readQuireConfig, type QuireHome } from '../config/quire-home';
import { RemoteAuthError, RemoteUnavailableError } from '../remote/errors';
import { FileSecretStore, serverTokenKey } from '../secrets/file-secret-store';
import type { RemoteWorkspace, SyncProgress } from '../sync-ports';
import { runQuireCli, type CliIo } from './quire-cli';
import type { SpaceListing, SyncOnceResult } from '../../shared/contract/spaces';
import {
  UnknownConflictError,
  UnknownRefusedChangeError,
  UnknownSpaceError,
  type AppServices,
  type EngineSession,
  type OpenSessionOptions,
  type WatchOptions,
} from '../app/app-services';

const TOKEN = 'tok-secret-123';
const SERVER = 'http://127.0.0.1:9';

type FakeSpace = { -readonly [K in keyof SpaceListing]: SpaceListing[K] };

function space(id: string, title: string): FakeSpace {
  return {
    id,
    title,
    organizationId: 'o-1',
    organization: 'Acme',
    folder: `acme/${id}`,
    enabled: false,
  };
}

/** An in-memory engine and remote standing in for the real ones. */
class FakeWorld {
  spaces: FakeSpace[] = [space('s-a', 'Alpha'), { ...space('s-b', 'Beta'), emoji: '📘' }];
  /** Like the real engine, the first listing enables every space when there are fewer than 20. */
  listed = false;
  whoAmIError: Error | undefined;
  syncResult: SyncOnceResult = { spaces: [], errors: [] };
  progress: SyncProgress[] = [];
  connected: { server: string; token: string }[] = [];
  openEngines = 0;
  paused: { paused: boolean; until: Date | null } = { paused: false, until: null };
  confirmed: string[] = [];
  watching: WatchOptions | undefined;

  services(home: QuireHome): AppServices {
    return {
      home,
      secrets: new FileSecretStore(home.secretsFile),
      connect: (server, token) => {
        this.connected.push({ server, token });
        return this.remote();
      },
      openEngine: async (options) => this.engine(options),
    };
  }

  private remote(): RemoteWorkspace {
    const never = () => Promise.reject(new Error('not used by these tests'));
    return {
      whoAmI: async () => {
        if (this.whoAmIError) throw this.whoAmIError;
        return { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@acme.test' };
      },
      listOrganizations: never,
      listSpaces: never,
      getRevision: never,
      downloadFile: never,
    };
  }

  private engine(options: OpenSessionOptions): EngineSession {
    this.openEngines++;
    return {
      refreshSpaces: async () => {
        await options.remote.whoAmI();
        if (!this.listed && this.spaces.length < 20) for (const s of this.spaces) s.enabled = true;
        this.listed = true;
        const organizations = [{ id: 'o-1', title: 'Acme' }];
        return { organizations, spaces: this.spaces.map((s) => ({ ...s })), errors: [] };
      },
      setSpaceEnabled: async (id, enabled) => {
        const space = this.spaces.find((s) => s.id === id);
        if (!space) throw new UnknownSpaceError(id);
        space.enabled = enabled;
      },
      syncOnce: async () => {
        for (const p of this.progress) options.onProgress?.(p);
        return this.syncResult;
      },
      status: async () =>
        this.spaces.map((s) => ({
          id: s.id,
          title: s.title,
          organization: s.organization,
          folder: s.folder,
          enabled: s.enabled,
          state: s.enabled ? 'synced' : 'disabled',
          revision: s.enabled ? 'r-1' : null,
          remoteRevision: 'r-1',
          pages: s.enabled ? 3 : 0,
          lastSync: s.enabled ? '2025-01-01T00:00:00.000Z' : null,
          errors: [],
        })),
      syncStatus: async () => ({
        state: 'idle',
        pending: 0,
        lastSync: null,
        paused: this.paused.paused,
        pausedUntil: this.paused.until?.toISOString() ?? null,
        conflicts: 0,
        error: null,
        tokenRejected: false,
        spaces: [],
        problems: [],
      }),
      watch: async (watch) => {
        this.watching = watch;
        const idle = {
          state: 'idle' as const,
          pending: 0,
          lastSync: null,
          paused: false,
          pausedUntil: null,
          conflicts: 0,
          error: null,
          tokenRejected: false,
          spaces: [],
          problems: [],
        };
        watch.onStatus?.(idle);
        watch.onRun?.({
          kind: 'sync',
          reason: 'start',
          finishedAt: '2025-01-01T00:00:00.000Z',
          pushed: 1,
          written: 0,
          removed: 0,
          offline: false,
          failures: [],
        });
        await new Promise((stopped) => watch.signal.addEventListener('abort', stopped));
        return { ...idle, pending: 1 };
      },
      pause: async (until) => {
        this.paused = { paused: true, until: until ?? null };
      },
      resume: async () => {
        this.paused = { paused: false, until: null };
      },
      pauseState: async () => this.paused,
      confirmDeletes: async (id) => {
        if (!this.spaces.some((s) => s.id === id)) throw new UnknownSpaceError(id);
        this.confirmed.push(id);
      },
      conflicts: async () => [],
      conflictVersions: async (id) => {
        throw new UnknownConflictError(`no open conflict #${id}`);
      },
      unsyncedEdits: async () => [],
      resolveConflict: async (id) => {
        throw new UnknownConflictError(`no open conflict #${id}`);
      },
      refusedChanges: async () => [],
      retryRefused: async () => 0,
      dropRefused: async (id) => {
        throw new UnknownRefusedChangeError(`no refused change ${id}`);
      },
      activity: async () => [],
      changeRequests: async () => [],
      changeRequest: () => Promise.reject(new Error('not used by these tests')),
      changeRequestDiff: () => Promise.reject(new Error('not used by these tests')),
      pinChangeRequest: () => Promise.reject(new Error('not used by these tests')),
      reviewActions: () => {
        throw new Error('not used by these tests');
      },
      comments: () => {
        throw new Error('not used by these tests');
      },
      close: async () => {
        this.openEngines--;
      },
      checkoutChangeRequest: () => Promise.reject(new Error('not used by these tests')),
      checkouts: async () => [],
    };
  }
}

let dir: string;
let home: QuireHome;
let world: FakeWorld;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cli-unit-'));
  home = quireHome(join(dir, 'home'));
  world = new FakeWorld();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function quire(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; onStop?: CliIo['onStop'] } = {},
) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { QUIRE_HOME: home.root, ...options.env },
    cwd: dir,
    readStdin: async () => options.stdin ?? '',
    ...(options.onStop ? { onStop: options.onStop } : {}),
  };
  const code = await runQuireCli(args, io, (h) => world.services(h));
  return { code, stdout, stderr };
}

const loginArgs = ['login', '--server', SERVER, '--token', TOKEN, '--folder', 'mirror'];

function expectOneLineError(result: { code: number; stderr: string }, code: number, text: RegExp) {
  expect(result.code).toBe(code);
  expect(result.stderr).toMatch(/^quire: [^\n]*\n$/);
  expect(result.stderr).toMatch(text);
  expect(result.stderr).not.toContain(TOKEN);
}

describe('quire CLI (fake engine)', () => {
  it('prints help on stdout and exits 0', async () => {
    for (const args of [['help'], ['--help'], ['login', '-h']]) {
      const result = await quire(args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: quire/);
    }
  });

  it('answers usage errors with one line and exit 2', async () => {
    expectOneLineError(await quire([]), 2, /missing command/);
    expectOneLineError(await quire(['frobnicate']), 2, /unknown command "frobnicate"/);
    expectOneLineError(await quire(['status', '--bogus']), 2, /unknown option "--bogus"/);
    expectOneLineError(await quire(['status', '--once']), 2, /status does not take --once/);
    expectOneLineError(await quire(['status', '--json=yes']), 2, /takes no value/);
    expectOneLineError(await quire(['sync']), 2, /sync --once/);
    expectOneLineError(await quire(['spaces', 'toggle', 's-a']), 2, /unknown spaces action/);
    expectOneLineError(await quire(['spaces', 'enable']), 2, /spaces enable <spaceId>/);
    expectOneLineError(await quire(['login', '--server', SERVER]), 2, /--folder/);
    expectOneLineError(
      await quire(['login', '--server', '--token', TOKEN, '--folder', 'm']),
      2,
      /--server needs a value/,
    );
  });

  it('never echoes a mistyped token option or a stray positional', async () => {
    expectOneLineError(await quire([`--tokn=${TOKEN}`, 'status']), 2, /unknown option "--tokn"/);
    expectOneLineError(await quire([...loginArgs, TOKEN]), 2, /no arguments/);
  });

  it('logs in: checks the token, stores it, writes config, enables the spaces', async () => {
    const result = await quire(loginArgs);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Logged in to ${SERVER} as Ada Lovelace <ada@acme.test>.`);
    expect(result.stdout).toContain('2 spaces, 2 enabled.');
    expect(world.connected).toEqual([{ server: SERVER, token: TOKEN }]);
    expect(world.spaces.every((s) => s.enabled)).toBe(true);
    expect(world.openEngines).toBe(0);
    expect(existsSync(join(dir, 'mirror'))).toBe(true);
    expect(await readQuireConfig(home)).toEqual({
      server: SERVER,
      folder: join(dir, 'mirror'),
      user: { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@acme.test' },
    });
    expect(await new FileSecretStore(home.secretsFile).get(serverTokenKey(SERVER))).toBe(TOKEN);
    expect(readFileSync(home.configFile, 'utf8')).not.toContain(TOKEN);
  });

  it('takes the token from stdin with --token - or from QUIRE_TOKEN', async () => {
    const args = ['login', '--server', SERVER, '--folder', 'mirror'];
    expect((await quire([...args, '--token', '-'], { stdin: `${TOKEN}\n` })).code).toBe(0);
    expect(world.connected.at(-1)?.token).toBe(TOKEN);
    expect((await quire(args, { env: { QUIRE_TOKEN: 'tok-env' } })).code).toBe(0);
    expect(world.connected.at(-1)?.token).toBe('tok-env');
    expectOneLineError(await quire(args), 2, /needs --token/);
  });

  it('tells how to pick spaces when the first login enabled none (20 or more)', async () => {
    world.spaces = Array.from({ length: 20 }, (_, i) => space(`s-${i}`, `Space ${i}`));
    const result = await quire(loginArgs);
    expect(result.stdout).toContain('20 spaces, 0 enabled.');
    expect(result.stdout).toContain('quire spaces enable <spaceId>');
  });

  it('re-login keeps the user’s choices and refuses another server or folder', async () => {
    await quire(loginArgs);
    await quire(['spaces', 'disable', 's-a']);
    expect((await quire(loginArgs)).stdout).toContain('2 spaces, 1 enabled.');
    expect(world.spaces.find((s) => s.id === 's-a')?.enabled).toBe(false);
    const other = [
      'login',
      '--server',
      'http://127.0.0.1:10',
      '--token',
      TOKEN,
      '--folder',
      'mirror',
    ];
    expectOneLineError(await quire(other), 1, /is set up for/);
  });

  it('maps login failures to one line each and stores nothing', async () => {
    expectOneLineError(
      await quire(['login', '--server', 'ftp://x.test', '--token', TOKEN, '--folder', 'm']),
      2,
      /invalid server URL "ftp:\/\/x.test": it must start with http/,
    );
    expectOneLineError(
      await quire(['login', '--server', 'https://u:pw@x.test', '--token', TOKEN, '--folder', 'm']),
      2,
      /^quire: invalid server URL: it must not contain/,
    );
    world.whoAmIError = new RemoteAuthError('401 Unauthorized', { status: 401 });
    expectOneLineError(await quire(loginArgs), 1, /^quire: the server rejected the token\n$/);
    world.whoAmIError = new RemoteUnavailableError('connect ECONNREFUSED 127.0.0.1:9', {
      attempts: 1,
    });
    expectOneLineError(
      await quire(loginArgs),
      1,
      /^quire: cannot reach server http:\/\/127.0.0.1:9: connect ECONNREFUSED/,
    );
    expect(existsSync(home.secretsFile)).toBe(false);
    expect(existsSync(home.configFile)).toBe(false);
  });

  it('refuses a mirror folder that contains the home or lies inside it', async () => {
    const args = ['login', '--server', SERVER, '--token', TOKEN, '--folder'];
    expectOneLineError(await quire([...args, '.']), 2, /must not contain each other/);
    expectOneLineError(await quire([...args, join(home.root, 'm')]), 2, /must not contain/);
  });

  it('scrubs the token from any message, even one from deep inside', async () => {
    world.whoAmIError = new Error(`boom with ${TOKEN}\nsecond line`);
    const result = await quire(loginArgs);
    expectOneLineError(result, 1, /^quire: boom with \*\*\* second line\n$/);
  });

  it('lists spaces as text and JSON, enables and disables them', async () => {
    await quire(loginArgs);
    await quire(['spaces', 'disable', 's-a']);
    const text = await quire(['spaces']);
    expect(text.stdout).toContain('[ ] s-a  Alpha  (Acme)');
    expect(text.stdout).toContain('[x] s-b  📘 Beta  (Acme)');
    const json = await quire(['spaces', '--json']);
    const acme = { organizationId: 'o-1', organization: 'Acme' };
    expect(JSON.parse(json.stdout)).toEqual([
      { id: 's-a', title: 'Alpha', ...acme, folder: 'acme/s-a', enabled: false },
      { id: 's-b', title: 'Beta', emoji: '📘', ...acme, folder: 'acme/s-b', enabled: true },
    ]);
    expect((await quire(['spaces', 'enable', 's-a'])).stdout).toMatch(/^Enabled s-a\./);
    expect(world.spaces.find((s) => s.id === 's-a')?.enabled).toBe(true);
    expectOneLineError(await quire(['spaces', 'enable', 's-zz']), 1, /no space "s-zz"/);
  });

  it('needs a login before anything touches the server', async () => {
    expectOneLineError(await quire(['spaces']), 1, /not logged in/);
    expectOneLineError(await quire(['status']), 1, /not logged in/);
    await quire(loginArgs);
    expect((await quire(['logout'])).stdout).toMatch(/^Logged out/);
    expect(await new FileSecretStore(home.secretsFile).get(serverTokenKey(SERVER))).toBeUndefined();
    expectOneLineError(await quire(['sync', '--once']), 1, /not logged in to/);
    // The cache still answers status without a token.
    const status = await quire(['status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ loggedIn: false });
    expect((await quire(['logout'])).code).toBe(0);
  });

  it('reports status per space as JSON', async () => {
    await quire(loginArgs);
    const result = await quire(['status', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      server: SERVER,
      folder: join(dir, 'mirror'),
      user: { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@acme.test' },
      loggedIn: true,
      state: 'idle',
      pending: 0,
      lastSync: null,
      paused: false,
      pausedUntil: null,
      conflicts: 0,
      error: null,
      runner: null,
      problems: [],
      refused: [],
      unsynced: [],
      spaces: [
        {
          id: 's-a',
          title: 'Alpha',
          organization: 'Acme',
          folder: 'acme/s-a',
          enabled: true,
          state: 'synced',
          revision: 'r-1',
          remoteRevision: 'r-1',
          pages: 3,
          lastSync: '2025-01-01T00:00:00.000Z',
          errors: [],
          changeRequest: null,
          pending: 0,
          conflicts: 0,
        },
        expect.objectContaining({ id: 's-b' }),
      ],
    });
    expect((await quire(['status'])).stdout).toContain(
      'Alpha (s-a): synced, revision r-1, 3 pages',
    );
  });

  it('sync --once exits 0 when clean and 2 when it left conflicts or problems', async () => {
    await quire(loginArgs);
    const pulled = {
      id: 's-a',
      title: 'Alpha',
      outcome: 'pulled',
      revision: 'r-2',
      filesWritten: 4,
      filesRemoved: 0,
      conflicts: 0,
      problems: [],
    } as const;
    const unchanged = { ...pulled, id: 's-b', title: 'Beta', outcome: 'unchanged' } as const;
    world.syncResult = { spaces: [pulled, unchanged], errors: [] };
    world.progress = [{ phase: 'fetching', space: 's-a', done: 1, total: 1 }];
    const clean = await quire(['sync', '--once']);
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(clean.stdout).toContain('Alpha (s-a): pulled revision r-2, 4 files written\n');
    expect(clean.stdout).toContain('Beta (s-b): up to date\n');
    world.syncResult = {
      spaces: [{ ...pulled, conflicts: 1, problems: ['x.md: bad'] }],
      errors: ['Listing the spaces of Other: 500'],
    };
    const messy = await quire(['sync', '--once']);
    expectOneLineError(messy, 2, /sync finished with 1 conflict and 2 problems/);
    expect(messy.stdout).toContain('Alpha (s-a): pulled revision r-2, 4 files written, 1 conflict');
    expect(messy.stdout).toContain('problem: Listing the spaces of Other: 500');
    expect(messy.stdout).toContain('problem: x.md: bad');
  });

  it('pauses (for a while or until resume), resumes and confirms deletions', async () => {
    await quire(loginArgs);
    const paused = await quire(['pause', '--for', '30m']);
    expect(paused.code).toBe(0);
    const until = world.paused.until!.getTime() - Date.now();
    expect(until).toBeGreaterThan(29 * 60_000);
    expect(until).toBeLessThanOrEqual(30 * 60_000);
    expect((await quire(['pause'])).stdout).toContain('until `quire resume`');
    expect(world.paused).toEqual({ paused: true, until: null });
    expectOneLineError(await quire(['pause', '--for', 'soon']), 2, /--for takes a duration/);
    expect((await quire(['resume'])).code).toBe(0);
    expect(world.paused.paused).toBe(false);
    expect((await quire(['confirm-deletes', 's-a'])).code).toBe(0);
    expect(world.confirmed).toEqual(['s-a']);
    expectOneLineError(await quire(['confirm-deletes', 's-zz']), 1, /no space "s-zz"/);
    expectOneLineError(await quire(['confirm-deletes']), 2, /usage: quire confirm-deletes/);
    expect(world.openEngines).toBe(0);
  });

  it('reports pushed changes in sync --once', async () => {
    await quire(loginArgs);
    world.syncResult = {
      spaces: [
        {
          id: 's-a',
          title: 'Alpha',
          outcome: 'pushed',
          pushed: 2,
          revision: 'r-1',
          filesWritten: 0,
          filesRemoved: 0,
          conflicts: 0,
          problems: [],
        },
      ],
      errors: [],
    };
    const result = await quire(['sync', '--once']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Alpha (s-a): 2 changes pushed, up to date\n');
  });

  it('sync --watch runs until stopped, holding the drain lock, and exits 0', async () => {
    await quire(loginArgs);
    expectOneLineError(await quire(['sync', '--once', '--watch']), 2, /not both/);
    expectOneLineError(await quire(['sync', '--watch', '--interval', '5x']), 2, /--interval/);
    expectOneLineError(await quire(['sync', '--once', '--interval', '5s']), 2, /with --watch/);

    let stop: (() => void) | undefined;
    let unsubscribed = false;
    const running = quire(['sync', '--watch', '--interval', '10s'], {
      onStop: (listener) => {
        stop = listener;
        return () => (unsubscribed = true);
      },
    });
    while (world.watching === undefined) await new Promise((tick) => setTimeout(tick, 5));
    expect(world.watching.intervalMs).toBe(10_000);
    // While it runs, another drainer of the same home is refused.
    expectOneLineError(await quire(['sync', '--once']), 1, /quire sync --watch, pid \d+/);
    stop!();
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Watching ');
    expect(result.stdout).toContain('status: idle\n');
    expect(result.stdout).toContain('sync (start): 1 change pushed\n');
    expect(result.stdout).toContain('Stopped with 1 change still queued');
    expect(unsubscribed).toBe(true);
    expect(existsSync(join(home.root, 'sync.lock'))).toBe(false);
    expect(world.openEngines).toBe(0);
    expect((await quire(['sync', '--once'])).code).toBe(0);
  });

  it('logs failures under <home>/logs without the token', async () => {
    await quire(loginArgs);
    world.whoAmIError = new Error(`kaput ${TOKEN}`);
    await quire(['spaces']);
    const log = readFileSync(join(home.logsDir, 'quire.log'), 'utf8');
    expect(log).toContain('kaput ***');
    expect(log).not.toContain(TOKEN);
  });

  it('refuses to read a secrets file others can read', async () => {
    await quire(loginArgs);
    if (process.platform === 'win32') return;
    chmodSync(home.secretsFile, 0o644);
    expectOneLineError(await quire(['spaces']), 1, /accessible by other users/);
  });
});
