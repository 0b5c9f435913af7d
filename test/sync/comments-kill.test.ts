import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentThread } from '../../src/shared/contract/review';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';
import { QuireChildren } from './quire-child';

/**
 * kill -9 between the server's answer and the acknowledgement: a proxy between a real `quire`
 * child and the server forwards a comment's POST, lets the server apply it, and holds the answer
 * back; the child is then SIGKILLed. The next `quire sync --once` resends the queued comment with
 * the same Idempotency-Key: the server replays its answer, and the comment exists once.
 */
let t: TestServer;
let proxy: Server;
let proxyUrl: string;
let dir: string;
let children: QuireChildren;
let number: number;
/** Set while the proxy holds back the answer to comment POSTs; resolved when one arrived. */
let hold: { arrived: () => void } | undefined;

function bodyOf(request: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks)));
    request.on('error', fail);
  });
}

function startProxy(target: string): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (name !== 'host' && name !== 'content-length' && typeof value === 'string') {
          headers.set(name, value);
        }
      }
      const answer = await fetch(`${target}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const isCommentPost = request.method === 'POST' && /\/comments$/.test(request.url ?? '');
      if (hold !== undefined && isCommentPost) {
        // Applied on the server; the child never hears of it.
        hold.arrived();
        return;
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding'].includes(name)) {
          out[name] = value;
        }
      });
      response.writeHead(answer.status, out).end(bytes);
    })().catch(() => response.destroy());
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

beforeAll(async () => {
  t = await startTestServer({ fixture: testFixture() });
  proxy = await startProxy(t.url);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'quire-comments-kill-'));
  children = new QuireChildren({ home: join(dir, 'home'), cwd: dir });
  const api = t.client(TOKENS.dora).spaces;
  const { data: cr } = await api.createChangeRequest('s-handbook', { subject: 'Kill me' });
  await api.updateChangeRequestById('s-handbook', cr.id, { status: ChangeRequestStatus.Open });
  number = cr.number;
}, 60_000);

afterAll(async () => {
  children?.killAll();
  proxy?.closeAllConnections();
  await new Promise((done) => proxy?.close(done));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function serverBodies(): Promise<string[]> {
  const { data } = await t
    .client(TOKENS.ada)
    .spaces.listCommentsInChangeRequest('s-handbook', String(number));
  return data.items.map((c) => (c.body as unknown as { markdown: string }).markdown);
}

describe('a comment under kill -9', () => {
  it(
    'is posted once when the sync dies after the server applied it',
    { timeout: 120_000 },
    async () => {
      const folder = join(dir, 'mirror');
      const login = await children.run([
        'login',
        '--server',
        proxyUrl,
        '--token',
        TOKENS.dora,
        '--folder',
        folder,
      ]);
      expect(login.code, login.output).toBe(0);
      const first = await children.run(['sync', '--once']);
      expect(first.code, first.output).toBe(0);
      const cr = String(number);
      const written = await children.run([
        'cr',
        'comment',
        'Handbook',
        cr,
        '--body',
        'Say it once',
      ]);
      expect(written.code, written.output).toBe(0);

      const arrived = new Promise<void>((done) => (hold = { arrived: done }));
      const dying = children.start(['sync', '--once']);
      await arrived;
      dying.child.kill('SIGKILL');
      expect((await dying.exited).signal).toBe('SIGKILL');
      hold = undefined;
      expect(await serverBodies()).toEqual(['Say it once']);

      const listed = await children.run(['cr', 'comments', 'Handbook', cr, '--json']);
      expect(JSON.parse(listed.output) as CommentThread[]).toMatchObject([
        { id: 'local-1', pending: 'create', body: 'Say it once' },
      ]);

      const again = await children.run(['sync', '--once']);
      expect(again.code, again.output).toBe(0);
      expect(await serverBodies()).toEqual(['Say it once']);
      const after = await children.run(['cr', 'comments', 'Handbook', cr, '--json']);
      const threads = JSON.parse(after.output) as CommentThread[];
      expect(threads).toMatchObject([{ pending: null, body: 'Say it once' }]);
    },
  );
});
