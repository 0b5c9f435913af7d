import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_NAMES, type QuireCommandHandlers } from '../../shared/contract/quire-commands';
import { AppEvents } from '../app/app-events';
import { startUiHost, type UiHost } from './ui-host';

/** The UI host over real loopback HTTP, in front of a fake application layer. */
let dir: string;
let host: UiHost;
let events: AppEvents;
const received: unknown[] = [];

function fakeApp() {
  const handlers = Object.fromEntries(
    COMMAND_NAMES.map((name) => [name, () => Promise.reject(new Error(`${name}: not faked`))]),
  ) as unknown as QuireCommandHandlers;
  return {
    ...handlers,
    appInfo: async () => ({ name: 'Quire', version: 'test' }),
    pause: async (args: { until: string | null }) => {
      received.push(args);
      return { paused: true, until: args.until };
    },
    openPath: async (args: unknown) => {
      received.push(args);
      return null;
    },
    on: events.on.bind(events),
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-ui-host-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Quire</title>');
  writeFileSync(join(dir, 'app.js'), 'console.log(1)');
  events = new AppEvents();
  received.length = 0;
  host = await startUiHost({ app: fakeApp(), rendererDir: dir });
});
afterEach(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One raw request: node:http lets a test set Host and Origin as an attacker's page would. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        method,
        path,
        headers: { host: `127.0.0.1:${host.port}`, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function command(name: string, args: unknown, headers: Record<string, string> = {}) {
  return send(
    'POST',
    `/api/commands/${name}`,
    { 'content-type': 'application/json', 'x-quire-secret': host.secret, ...headers },
    JSON.stringify(args),
  );
}

describe('the UI host', () => {
  it('prints a URL on 127.0.0.1 with a 32-byte secret in the fragment', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#secret=${host.secret}`);
    expect(Buffer.from(host.secret, 'base64url')).toHaveLength(32);
  });

  it('serves the built renderer with a CSP, no-store, and nothing outside its folder', async () => {
    const page = await send('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await send('GET', '/app.js')).status).toBe(200);
    expect((await send('GET', '/../../../etc/passwd')).status).toBe(404);
    expect((await send('GET', '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });

  it('runs a command sent with the secret and answers its CommandOutcome', async () => {
    const answer = await command('appInfo', {});
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      ok: true,
      result: { name: 'Quire', version: 'test' },
    });
    const paused = await command(
      'pause',
      { until: null },
      { origin: `http://127.0.0.1:${host.port}` },
    );
    expect(JSON.parse(paused.body)).toEqual({ ok: true, result: { paused: true, until: null } });
    expect(received).toEqual([{ until: null }]);
  });

  it('carries the host commands too, their paths kept inside the mirror', async () => {
    const opened = JSON.parse((await command('openPath', { path: 'Acme/Handbook/a.md' })).body);
    expect(opened).toEqual({ ok: true, result: null });
    const outside = JSON.parse((await command('openPath', { path: '../../etc/passwd' })).body);
    expect(outside).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument', field: 'path' },
    });
    expect(received).toEqual([{ path: 'Acme/Handbook/a.md' }]);
  });

  it('answers a failing or malformed command as data, never reaching the app', async () => {
    const invalid = JSON.parse((await command('pause', { until: 5, extra: 1 })).body);
    expect(invalid).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } });
    const failed = JSON.parse((await command('status', {})).body);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'unexpected' } });
    expect((await command('noSuchCommand', {})).status).toBe(404);
    const notJson = await send(
      'POST',
      '/api/commands/appInfo',
      { 'content-type': 'application/json', 'x-quire-secret': host.secret },
      '{"__proto__": {"x": 1}}',
    );
    expect(notJson.status).toBe(400);
    const huge = await command('pause', { until: 'x'.repeat(9 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(received).toEqual([]);
  });

  it('refuses a request without the secret, or with a wrong one', async () => {
    const missing = await send(
      'POST',
      '/api/commands/appInfo',
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(missing.status).toBe(401);
    expect((await command('appInfo', {}, { 'x-quire-secret': 'guess' })).status).toBe(403);
    // The query parameter is for the event stream alone.
    const inQuery = await send(
      'POST',
      `/api/commands/appInfo?secret=${host.secret}`,
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(inQuery.status).toBe(401);
    expect((await send('GET', '/api/events')).status).toBe(401);
  });

  it('refuses a foreign Origin, a cross-site fetch, and a foreign Host (DNS rebinding)', async () => {
    expect((await command('appInfo', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect(
      (await command('appInfo', {}, { origin: `http://127.0.0.1:${host.port + 1}` })).status,
    ).toBe(403);
    expect((await command('appInfo', {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await command('appInfo', {}, { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await send('GET', '/', { host: `rebound.example:${host.port}` })).status).toBe(403);
    expect((await command('appInfo', {}, { host: `localhost:${host.port}` })).status).toBe(200);
  });

  it('refuses a cross-site form post, and any body that is not JSON', async () => {
    const form = await send(
      'POST',
      '/api/commands/pause',
      { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      'until=',
    );
    expect(form.status).toBe(403);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data']) {
      const simple = await send(
        'POST',
        '/api/commands/pause',
        { 'content-type': type, 'x-quire-secret': host.secret },
        '{"until":null}',
      );
      expect(simple.status, type).toBe(415);
    }
    expect(received).toEqual([]);
  });

  it('sends every event over server-sent events', async () => {
    const response = await fetch(`http://127.0.0.1:${host.port}/api/events?secret=${host.secret}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}: ${text}`);
        text += value;
      }
    };
    await readUntil(': connected');
    events.emit('activity', {
      time: '2026-01-01T00:00:00.000Z',
      kind: 'pulled',
      spaceId: 's1',
      path: 'a\nb.md',
    } as never);
    await readUntil('\n\n');
    await readUntil('event: activity\n');
    await readUntil('}\n\n');
    const data = /event: activity\ndata: (.*)\n\n/.exec(text)![1]!;
    expect(JSON.parse(data)).toMatchObject({ kind: 'pulled', path: 'a\nb.md' });
    await reader.cancel();
  });
});
