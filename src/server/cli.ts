#!/usr/bin/env node
// The `npm run server` entry point: starts the API server, or runs an admin command.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AdminCommands, AdminError } from './admin/admin-commands';
import { buildServer } from './build-server';
import { systemClock } from './clock';
import { openDatabase, type Db } from './db/open-database';
import { demoFixture, DEMO_TOKEN } from './fixture/demo-workspace';
import { FixtureError, loadFixture, readFixture } from './fixture/load-fixture';

const USAGE = `Usage:
  npm run server -- [--port <n>] [--host <addr>] [--db <file>] [--fixture <file.json>]
                    [--public-url <url>] [--allow-private-urls] [--rate-limit <n>]
                    [--body-limit <bytes>] [--log-level <level>]
  npm run server -- admin <command> [--db <file>] ...

Admin commands:
  create-user  --name <display name> --email <address> [--id <id>]
  issue-token  --user <userId> [--label <text>]
  revoke-token --token <token>
  create-org   --title <title> [--id <id>] [--email-domain <domain>]...
  add-member   --org <organizationId> --user <userId> --role <admin|create|review|edit|comment|read|guest>`;

const DEFAULT_DB = '.quire-server/quire.db';

function fail(message: string): never {
  process.stderr.write(`quire-server: ${message}\n`);
  process.exit(2);
}

function open(file: string): Db {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  return openDatabase(file);
}

function isEmpty(db: Db): boolean {
  return (db.prepare('SELECT count(*) AS n FROM organizations').get() as { n: number }).n === 0;
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
  const bodyLimit = values['body-limit'] === undefined ? undefined : Number(values['body-limit']);
  if (bodyLimit !== undefined && !(Number.isInteger(bodyLimit) && bodyLimit > 0))
    fail('--body-limit must be a positive integer');

  const db = open(values.db ?? DEFAULT_DB);
  let demo = false;
  if (isEmpty(db)) {
    try {
      if (values.fixture) loadFixture(db, readFixture(values.fixture), systemClock);
      else if (!values.db) {
        loadFixture(db, demoFixture(), systemClock);
        demo = true;
      }
    } catch (error) {
      if (error instanceof FixtureError) fail(error.message);
      throw error;
    }
  } else if (values.fixture) {
    process.stderr.write(
      `quire-server: database is not empty; fixture ${values.fixture} not loaded\n`,
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
    },
  });
  const address = await server.app.listen({ port, host: values.host });
  const url = address.replace('[::1]', '127.0.0.1');
  // With --port 0 the public URL is only known now.
  if (!values['public-url']) server.ctx.urls.rebase(url);
  process.stdout.write(`Quire server listening on ${url}\n`);
  if (demo || (!values.db && !values.fixture)) {
    process.stdout.write(
      `Demo workspace loaded. Try: curl -H "Authorization: Bearer ${DEMO_TOKEN}" ${url}/v1/orgs\n`,
    );
  }
  const stop = () => {
    void server.close().then(() => {
      db.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function admin(argv: string[]): void {
  const [command, ...rest] = argv;
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
  const need = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || !value) fail(`admin ${command}: --${key} is required`);
    return value;
  };
  const db = open(values.db);
  const commands = new AdminCommands(db, systemClock);
  try {
    switch (command) {
      case 'create-user':
        process.stdout.write(
          `${commands.createUser({ displayName: need('name'), email: need('email'), ...(values.id ? { id: values.id } : {}) })}\n`,
        );
        break;
      case 'issue-token':
        process.stdout.write(`${commands.issueToken(need('user'), values.label ?? '')}\n`);
        break;
      case 'revoke-token':
        commands.revokeToken(need('token'));
        process.stdout.write('revoked\n');
        break;
      case 'create-org':
        process.stdout.write(
          `${commands.createOrganization({ title: need('title'), emailDomains: values['email-domain'] ?? [], ...(values.id ? { id: values.id } : {}) })}\n`,
        );
        break;
      case 'add-member':
        commands.addMember(need('org'), need('user'), need('role'));
        process.stdout.write('added\n');
        break;
      default:
        fail(`unknown admin command ${command ?? '(none)'}\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof AdminError) fail(error.message);
    throw error;
  } finally {
    db.close();
  }
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
    fail(`${error.message}\n${USAGE}`);
  }
  throw error;
}
