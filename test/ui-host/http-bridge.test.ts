import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpBridge, secretOf } from '../../src/renderer/src/bridge/http-bridge';

/** The HTTP bridge's own logic, with fetch and EventSource faked (the browser test runs both). */
class FakeEventSource {
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly listeners = new Map<string, (message: { data: string }) => void>();

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(name: string, listener: (message: { data: string }) => void): void {
    this.listeners.set(name, listener);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The host refused or went away for good: the browser gives up on this source. */
  fail(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

const LOCATION = { origin: 'http://127.0.0.1:4000', hash: '#secret=s3cr3t' };

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the HTTP bridge', () => {
  it('sends a command with the secret header and answers its outcome, or a failure as data', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, result: { name: 'Quire' } }));
    const bridge = createHttpBridge(LOCATION, {
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    expect(await bridge.invoke('appInfo', {})).toEqual({ ok: true, result: { name: 'Quire' } });
    expect(fetch).toHaveBeenCalledWith(
      'http://127.0.0.1:4000/api/commands/appInfo',
      expect.objectContaining({
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', 'x-quire-secret': 's3cr3t' },
      }),
    );
    fetch.mockImplementationOnce(async () =>
      Response.json({ error: 'the secret is wrong' }, { status: 403 }),
    );
    expect(await bridge.invoke('appInfo', {})).toEqual({
      ok: false,
      error: {
        kind: 'unexpected',
        message: 'Quire refused the request (HTTP 403: the secret is wrong)',
      },
    });
    fetch.mockImplementationOnce(async () => {
      throw new TypeError('fetch failed');
    });
    expect(await bridge.invoke('appInfo', {})).toMatchObject({
      ok: false,
      error: { kind: 'unexpected' },
    });
  });

  it('keeps the secret for a reload without the fragment', () => {
    const storage = memoryStorage();
    expect(secretOf(LOCATION, storage)).toBe('s3cr3t');
    expect(secretOf({ origin: LOCATION.origin, hash: '' }, storage)).toBe('s3cr3t');
  });

  it('shares one event stream, delivers parsed events, and reopens it after the host closed it', () => {
    const bridge = createHttpBridge(LOCATION, {
      fetch: vi.fn() as unknown as typeof fetch,
      EventSource: FakeEventSource as unknown as typeof EventSource,
    });
    const seen: unknown[] = [];
    const offStatus = bridge.on('status', (status) => seen.push(status.state));
    const offRun = bridge.on('run', () => undefined);
    expect(FakeEventSource.opened).toHaveLength(1);
    const first = FakeEventSource.opened[0]!;
    expect(first.url).toBe('http://127.0.0.1:4000/api/events?secret=s3cr3t');
    first.listeners.get('status')!({ data: '{"state":"idle"}' });
    expect(seen).toEqual(['idle']);

    first.fail();
    vi.advanceTimersByTime(499);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    FakeEventSource.opened[1]!.listeners.get('status')!({ data: '{"state":"syncing"}' });
    expect(seen).toEqual(['idle', 'syncing']);

    offStatus();
    offRun();
    expect(FakeEventSource.opened[1]!.readyState).toBe(FakeEventSource.CLOSED);
  });
});
