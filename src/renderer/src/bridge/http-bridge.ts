import type { CommandError } from '../../../shared/contract/command-error';
import type { QuireBridge } from '../../../shared/contract/quire-bridge';
import type {
  CommandArgs,
  CommandName,
  CommandOutcome,
} from '../../../shared/contract/quire-commands';
import {
  EVENT_NAMES,
  type EventName,
  type QuireEventListener,
} from '../../../shared/contract/quire-events';

/** Where the page came from: its origin, and the fragment holding the secret (`#secret=…`). */
export interface BridgeLocation {
  readonly origin: string;
  readonly hash: string;
}

export interface HttpBridgeOptions {
  /** Keeps the secret for a reload once the fragment is gone (sessionStorage in the page). */
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;
  readonly fetch?: typeof fetch;
  readonly EventSource?: typeof EventSource;
  /** Longest wait before reconnecting a closed event stream. */
  readonly maxReconnectMs?: number;
}

const SECRET_KEY = 'quire-ui-secret';

/** The secret from `#secret=…`, else the one kept from an earlier load of this tab. */
export function secretOf(location: BridgeLocation, storage?: HttpBridgeOptions['storage']): string {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('secret');
  if (fromHash) {
    storage?.setItem(SECRET_KEY, fromHash);
    return fromHash;
  }
  return storage?.getItem(SECRET_KEY) ?? '';
}

/**
 * The contract over `quire ui`'s HTTP host: a command is `POST /api/commands/<name>` with the
 * secret in `X-Quire-Secret`; events come over one EventSource on `/api/events?secret=…` (an
 * EventSource sets no header), opened with the first listener and reopened, with a growing delay,
 * whenever the host closes it. Failures come back as CommandOutcome data, like the preload's.
 */
export function createHttpBridge(
  location: BridgeLocation,
  options: HttpBridgeOptions = {},
): QuireBridge {
  const secret = secretOf(location, options.storage);
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const events = new EventStream(
    `${location.origin}/api/events?secret=${encodeURIComponent(secret)}`,
    // Looked up when the first listener comes: a bridge used for commands alone needs none.
    () => options.EventSource ?? EventSource,
    options.maxReconnectMs ?? 10_000,
  );
  return {
    invoke: <K extends CommandName>(name: K, args: CommandArgs<K>) =>
      invokeOverHttp<K>(doFetch, `${location.origin}/api/commands/${name}`, secret, args),
    on: (event, listener) => events.on(event, listener),
  };
}

async function invokeOverHttp<K extends CommandName>(
  doFetch: typeof fetch,
  url: string,
  secret: string,
  args: unknown,
): Promise<CommandOutcome<K>> {
  let response: Response;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-quire-secret': secret },
      body: JSON.stringify(args),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    return failed('Quire is not answering: is `quire ui` still running?');
  }
  const body = (await response.json().catch(() => undefined)) as
    CommandOutcome<K> | { error?: string } | undefined;
  if (body !== undefined && 'ok' in body) return body;
  const reason = body && 'error' in body && typeof body.error === 'string' ? `: ${body.error}` : '';
  return failed(`Quire refused the request (HTTP ${response.status}${reason})`);
}

function failed(message: string): { ok: false; error: CommandError } {
  return { ok: false, error: { kind: 'unexpected', message } };
}

/** One EventSource for every listener; reopened after the host closed it. */
class EventStream {
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  private source: EventSource | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;

  constructor(
    private readonly url: string,
    private readonly eventSource: () => typeof EventSource,
    private readonly maxReconnectMs: number,
  ) {}

  on<E extends EventName>(event: E, listener: QuireEventListener<E>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    const stored = listener as (payload: unknown) => void;
    set.add(stored);
    if (this.source === undefined && this.retryTimer === undefined) this.open();
    return () => {
      set.delete(stored);
      if (this.count() === 0) this.shut();
    };
  }

  private open(): void {
    const Source = this.eventSource();
    const source = new Source(this.url);
    this.source = source;
    source.onopen = () => (this.retries = 0);
    // An EventSource reconnects by itself after a dropped stream; it gives up (CLOSED) when the
    // host answers with an error, e.g. a `quire ui` restarted on the same port: try again later.
    source.onerror = () => {
      if (source.readyState !== Source.CLOSED || this.source !== source) return;
      this.source = undefined;
      const delay = Math.min(this.maxReconnectMs, 500 * 2 ** this.retries++);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (this.count() > 0) this.open();
      }, delay);
    };
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => this.deliver(name, message as MessageEvent));
    }
  }

  private deliver(name: EventName, message: MessageEvent): void {
    let payload: unknown;
    try {
      payload = JSON.parse(String(message.data));
    } catch {
      return;
    }
    for (const listener of this.listeners.get(name) ?? []) listener(payload);
  }

  private shut(): void {
    this.source?.close();
    this.source = undefined;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private count(): number {
    let total = 0;
    for (const set of this.listeners.values()) total += set.size;
    return total;
  }
}
