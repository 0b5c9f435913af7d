import type { CommandName } from '../../src/shared/contract/quire-commands';

/** Polls `check` until it returns a value (or gives up, with `context()` in the message). */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  limitMs = 30_000,
  context: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${context()}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** The URL `quire ui` prints, split into the origin and the secret of its fragment. */
export function parseUiUrl(url: string): { origin: string; secret: string } {
  const parsed = new URL(url);
  const secret = new URLSearchParams(parsed.hash.slice(1)).get('secret');
  if (!secret) throw new Error(`no secret in ${url}`);
  return { origin: parsed.origin, secret };
}

/** One command over the UI host, as the HTTP bridge sends it; the parsed CommandOutcome. */
export async function invokeOverHttp(
  origin: string,
  secret: string,
  name: CommandName,
  args: unknown = {},
): Promise<{ ok: boolean; result?: unknown; error?: { kind: string; message: string } }> {
  const response = await fetch(`${origin}/api/commands/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-quire-secret': secret },
    body: JSON.stringify(args),
  });
  if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
  return (await response.json()) as { ok: boolean; result?: unknown };
}

/** Reads the host's server-sent events into a list, until `close()`. */
export async function collectEvents(
  origin: string,
  secret: string,
): Promise<{ events: { event: string; data: unknown }[]; close(): Promise<void> }> {
  const response = await fetch(`${origin}/api/events?secret=${encodeURIComponent(secret)}`);
  if (response.status !== 200) throw new Error(`events: HTTP ${response.status}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined)
          events.push({ event, data: JSON.parse(data) });
      }
    }
  })();
  return {
    events,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await reading;
    },
  };
}
