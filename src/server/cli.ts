#!/usr/bin/env node
// The `npm run server` entry point: starts the API server, or runs an admin command.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AdminCommands, AdminError } from './admin/admin-commands';
import { hashToken } from './auth/token-hash';
import { systemClock } from './clock';
import { openDatabase, type Db } from './db/open-database';
import type { Fixture } from './fixture/fixture-schema';

const USAGE = `Usage:
  npm run server -- [--port <n>] [--host <addr>] [--db <file>] [--fixture <file.json>]
                    [--public-url <url>] [--allow-private-urls] [--rate-limit <n>]
                    [--body-limit <bytes>] [--cpu-budget <ms>] [--cpu-threads <n>]
                    [--log-level <level>]
  npm run server -- admin <command> [--db <file>] ...

Admin commands:
  create-user  --name <display name> --email <address> [--id <id>]
  issue-token  --user <userId> [--label <text>]
  revoke-token --token <token>
  create-org   --title <title> [--id <id>] [--email-domain <domain>]...
  add-member   --org <organizationId> --user <userId> --role <admin|create|review|edit|comment|read|guest>`;

const DEFAULT_DB = '.quire-server/quire.db';

/** A flag's value as a positive integer, or undefined when the flag is absent. */
function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(Number.isInteger(n) && n > 0)) fail(`--${flag} must be a positive integer`);
  return n;
}

function fail(message: string): never {
  process.stderr.write(`quire-server: ${message}\n`);
  process.exit(2);
}

function open(file: string): Db {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  return openDatabase(file);
}

/** Whether a token still works (an operator may have revoked the demo's). */
function tokenActive(db: Db, token: string): boolean {
  return !!db
    .prepare('SELECT 1 FROM tokens WHERE hash = ? AND revoked_at IS NULL')
    .get(hashToken(token));
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      fixture: { type: 'string' },
      'public-url': { type: 'string' },
      'allow-private-urls': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'body-limit': { type: 'string' },
      'cpu-budget': { type: 'string' },
      'cpu-threads': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port ${values.port} is not a port number`);
  const rateLimit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit > 0))
    fail('--rate-limit must be a positive integer');
  const bodyLimit = positiveInteger(values['body-limit'], 'body-limit');
  const cpuJobBudgetMs = positiveInteger(values['cpu-budget'], 'cpu-budget');
  const cpuThreads = positiveInteger(values['cpu-threads'], 'cpu-threads');

  const dbFile = values.db ?? DEFAULT_DB;
  // The bundled demo goes only into the default database, never into one the operator named.
  const demoDb = !values.db && !values.fixture;
  // Loaded here, not at the top: admin commands start faster without the server's module graph.
  const [{ buildServer }, { demoFixture, DEMO_TOKEN }, fixtures] = await Promise.all([
    import('./build-server'),
    import('./fixture/demo-workspace'),
    import('./fixture/load-fixture'),
  ]);
  const { FixtureError, isDatabaseEmpty, loadFixture, readFixture } = fixtures;
  // Read and check the fixture before creating the database, so a bad file leaves nothing behind.
  let fixture: Fixture | undefined;
  try {
    fixture = values.fixture ? readFixture(values.fixture) : demoDb ? demoFixture() : undefined;
  } catch (error) {
    if (error instanceof FixtureError) fail(error.message);
    throw error;
  }
  const db = open(dbFile);
  const startedEmpty = isDatabaseEmpty(db);
  let loaded = false;
  if (fixture && isDatabaseEmpty(db)) {
    try {
      loadFixture(db, fixture, systemClock);
      loaded = true;
    } catch (error) {
      db.close();
      if (error instanceof FixtureError) fail(error.message);
      throw error;
    }
  } else if (values.fixture) {
    process.stderr.write(
      `quire-server: database ${dbFile} is not empty; fixture ${values.fixture} not loaded\n`,
    );
  }

  const server = buildServer({
    db,
    logger: { level: values['log-level'], redact: ['req.headers.authorization'] },
    config: {
      publicUrl: values['public-url'] ?? `http://${values.host}:${port}`,
      allowPrivateUrls: values['allow-private-urls'],
      ...(rateLimit ? { rateLimitMax: rateLimit } : {}),
      ...(bodyLimit ? { bodyLimit } : {}),
      ...(cpuJobBudgetMs ? { cpuJobBudgetMs } : {}),
      ...(cpuThreads ? { cpuThreads } : {}),
    },
  });
  const address = await server.app.listen({ port, host: values.host });
  const url = address.replace('[::1]', '127.0.0.1');
  // With --port 0 the public URL is only known now.
  if (!values['public-url']) server.ctx.urls.rebase(url);
  // One write, so whoever watches stdout for the URL sees the whole banner with it.
  const banner = [`Quire server listening on ${url}`];
  if (loaded)
    banner.push(`Loaded ${demoDb ? 'the demo workspace' : values.fixture} into ${dbFile}`);
  else if (!values.fixture && startedEmpty) {
    // A new --db without --fixture: a server nobody can use yet, which deserves saying.
    banner.push(
      `Using database ${dbFile}: it is empty (no users, no tokens, no organizations)`,
      `Load a workspace with --fixture <file.json> (see examples/workspace.json), or add users with \`npm run server -- admin create-user …\``,
    );
  } else if (!values.fixture) banner.push(`Using database ${dbFile}`);
  if (demoDb && tokenActive(db, DEMO_TOKEN)) {
    banner.push(
      `Demo token: ${DEMO_TOKEN}`,
      `Try: curl -H "Authorization: Bearer ${DEMO_TOKEN}" ${url}/v1/orgs`,
    );
  }
  process.stdout.write(`${banner.join('\n')}\n`);
  const stop = () => {
    void server.close().then(() => {
      db.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The flags each admin command cannot do without, checked before the database is touched. */
const ADMIN_REQUIRED = {
  'create-user': ['name', 'email'],
  'issue-token': ['user'],
  'revoke-token': ['token'],
  'create-org': ['title'],
  'add-member': ['org', 'user', 'role'],
} as const;
type AdminCommand = keyof typeof ADMIN_REQUIRED;

function admin(argv: string[]): void {
  const [command, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === undefined || !Object.hasOwn(ADMIN_REQUIRED, command)) {
    fail(
      `unknown admin command ${command ?? '(none)'}; use one of ${Object.keys(ADMIN_REQUIRED).join(', ')}`,
    );
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      user: { type: 'string' },
      label: { type: 'string' },
      token: { type: 'string' },
      title: { type: 'string' },
      'email-domain': { type: 'string', multiple: true },
      org: { type: 'string' },
      role: { type: 'string' },
    },
  });
  for (const key of ADMIN_REQUIRED[command as AdminCommand]) {
    if (!values[key]) fail(`admin ${command}: --${key} is required`);
  }
  // Checked above; this only narrows the type.
  const need = (key: 'name' | 'email' | 'user' | 'token' | 'title' | 'org' | 'role'): string =>
    values[key] ?? '';
  const db = open(values.db);
  const commands = new AdminCommands(db, systemClock);
  let output: string;
  try {
    switch (command as AdminCommand) {
      case 'create-user':
        output = commands.createUser({
          displayName: need('name'),
          email: need('email'),
          ...(values.id ? { id: values.id } : {}),
        });
        break;
      case 'issue-token':
        output = commands.issueToken(need('user'), values.label ?? '');
        break;
      case 'revoke-token':
        commands.revokeToken(need('token'));
        output = 'revoked';
        break;
      case 'create-org':
        output = commands.createOrganization({
          title: need('title'),
          emailDomains: values['email-domain'] ?? [],
          ...(values.id ? { id: values.id } : {}),
        });
        break;
      case 'add-member':
        commands.addMember(need('org'), need('user'), need('role'));
        output = 'added';
        break;
    }
  } catch (error) {
    db.close();
    if (error instanceof AdminError) fail(`admin ${command}: ${error.message}`);
    throw error;
  }
  db.close();
  process.stdout.write(`${output}\n`);
}

const argv = process.argv.slice(2);
try {
  if (argv[0] === 'admin') admin(argv.slice(1));
  else await serve(argv);
} catch (error) {
  if (
    error instanceof TypeError &&
    'code' in error &&
    String(error.code).startsWith('ERR_PARSE_ARGS')
  ) {
    fail(`${error.message}; run with --help for usage`);
  }
  throw error;
}
