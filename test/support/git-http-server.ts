import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const BACKEND = '/usr/lib/git-core/git-http-backend';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  root: string;
  /** Creates the bare repository `<name>.git` with one commit of `files` on `main`. */
  addRepository(name: string, files: ReadonlyMap<string, string | Buffer>): void;
  /** Paths (from `/`) answered with a 302 to the given location instead. */
  redirects: Map<string, string>;
  /** Repositories (by name) that need these Basic credentials. */
  credentials: Map<string, { user: string; password: string }>;
  /** Authorization headers received, in order. */
  authorizations: string[];
  /** The files of `ref` in repository `name` (after a push), by path. */
  filesOf(name: string, ref?: string): Map<string, Buffer>;
  close(): Promise<void>;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

const git = (args: string[], cwd: string) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, maxBuffer: 1 << 28 });

/**
 * Real Git repositories served over loopback HTTP by git's own `git http-backend` (CGI behind
 * node:http): smart HTTP fetch and push, as a Git host serves them.
 */
export async function startGitHttpServer(): Promise<GitHttpServer> {
  const root = mkdtempSync(join(tmpdir(), 'quire-git-host-'));
  const redirects = new Map<string, string>();
  const credentials = new Map<string, { user: string; password: string }>();
  const authorizations: string[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const redirect = [...redirects].find(([prefix]) => path.startsWith(prefix));
    if (redirect) {
      response.writeHead(302, { location: redirect[1] + path.slice(redirect[0].length) });
      response.end();
      return;
    }
    if (request.headers.authorization) authorizations.push(request.headers.authorization);
    const repository = /^\/([^/]+)\.git\//.exec(path)?.[1] ?? '';
    const needed = credentials.get(repository);
    if (needed && !authorized(request, needed)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      response.end();
      return;
    }
    serveCgi(root, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    redirects,
    credentials,
    authorizations,
    addRepository(name, files) {
      const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
      for (const [path, content] of files) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      git(['init', '-q', '-b', 'main'], work);
      git(['add', '-A'], work);
      git(['commit', '-q', '-m', 'Docs'], work);
      git(['clone', '-q', '--bare', work, join(root, `${name}.git`)], root);
      git(['config', 'http.receivepack', 'true'], join(root, `${name}.git`));
      rmSync(work, { recursive: true, force: true });
    },
    filesOf(name, ref = 'main') {
      const bare = join(root, `${name}.git`);
      const list = git(['ls-tree', '-r', '-z', '--name-only', ref], bare).toString('utf8');
      const files = new Map<string, Buffer>();
      for (const path of list.split('\0').filter(Boolean)) {
        files.set(path, git(['show', `${ref}:${path}`], bare));
      }
      return files;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function authorized(request: IncomingMessage, needed: { user: string; password: string }): boolean {
  const expected = Buffer.from(`${needed.user}:${needed.password}`).toString('base64');
  return request.headers.authorization === `Basic ${expected}`;
}

/** Runs git http-backend for one request (RFC 3875 CGI) and relays its answer. */
function serveCgi(root: string, request: IncomingMessage, response: ServerResponse): void {
  const [path = '/', query = ''] = (request.url ?? '/').split('?');
  const child = spawn(BACKEND, [], {
    env: {
      ...GIT_ENV,
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
      PATH_INFO: decodeURIComponent(path),
      QUERY_STRING: query,
      REQUEST_METHOD: request.method ?? 'GET',
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      ...(request.headers['content-length']
        ? { CONTENT_LENGTH: request.headers['content-length'] }
        : {}),
      ...(request.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }
        : {}),
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
    },
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name, value);
    }
    response.statusCode = status;
    headersSent = true;
    response.write(head.subarray(end + 4));
  });
  child.stdout.on('end', () => response.end());
  child.on('error', () => response.destroy());
}
