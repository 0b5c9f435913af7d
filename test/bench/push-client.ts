import { fileURLToPath } from 'node:url';
import { startChild } from './bench-child';

/** The search-and-replace of the burst and drain modes: a domain every page links to. */
export const OLD_TEXT = 'docs.example.com';
export const NEW_TEXT = 'docs.quire.test';

const PUSH_CLIENT_MAIN = fileURLToPath(new URL('./push-bench-client.ts', import.meta.url));

/**
 * What the push client child does, after mirroring the server's one space into a fresh home and
 * folder (every mode starts with that initial sync):
 * - `latency`: runs `quire sync --watch` as the CLI does (QuireEngine.watch: the SyncWatcher with
 *   its defaults) and saves one page file after another (`count` timed saves after one warm-up
 *   save, which creates the working change request), each timed from the end of the write until
 *   the server returns the new Markdown (the page read from the change request every `pollMs`).
 * - `burst`: runs the watch the same way, then replaces a domain name in `count` page files at
 *   once (a search-and-replace) and waits until nothing is pending and the watch is quiet.
 * - `drain`: the same search-and-replace, then one syncOnce (no watcher): its HTTP calls, times
 *   and statuses, for a server that rate-limits them.
 */
export type PushClientMode = 'latency' | 'burst' | 'drain';

export interface PushClientArgs {
  mode: PushClientMode;
  server: string;
  home: string;
  folder: string;
  /** Timed saves (`latency`) or edited files (`burst`, `drain`). */
  count: number;
  /** `latency`: how often the server is asked for the page. */
  pollMs?: number;
}

/** One call of the transport under WorkspaceClient's rate-limited fetch (retries included). */
export interface HttpCall {
  /** Sent to the server as `x-bench-seq`, so that its own record can be matched. */
  seq: number;
  method: string;
  /** The path with ids replaced by `:id` (see callKind), e.g. `POST /v1/spaces/:id/…/content`. */
  kind: string;
  /** performance.now() in the client: the transport called, and the response headers in. */
  sentAt: number;
  receivedAt: number;
  /** 0 when the call failed without a response. */
  status: number;
  retryAfter: string | null;
  rateLimitRemaining: string | null;
  rateLimitReset: string | null;
}

/** One timed save of the latency mode. */
export interface SaveSample {
  /** Write finished → the server returned the new Markdown. */
  totalMs: number;
  /** Write finished → the watch's run started (write-finish detection and debounce). */
  detectMs: number;
  /** Page reads it took (one every pollMs). */
  polls: number;
}

export interface PushClientReport {
  mode: PushClientMode;
  /** The initial mirror (fresh home), not measured by these scenarios. */
  mirrorMs: number;
  /** Page files in the mirrored space. */
  pageFiles: number;
  /** `latency`. */
  warmupMs?: number;
  samples?: SaveSample[];
  /** `burst`, `drain`: the edited files written (all of them), and the push. */
  writeMs?: number;
  /** From the first write to the end of the last sync that sent anything. */
  drainMs?: number;
  /** From the first write to the answer of the last updateChangeRequestContent call. */
  updatesDoneMs?: number;
  /** Runs of the watch after its start-up sync (`latency`, `burst`). */
  syncs?: number;
  /** Transport calls from the first write on (`burst`, `drain`), or of the whole run. */
  calls: HttpCall[];
  /** Rows left in the outbox at the end (failed ones included). */
  outboxLeft: number;
  /** `burst`, `drain`: pages of the change request with the new text, and with the old one. */
  verified?: { pages: number; replaced: number; old: number };
  /** Retries and pauses of the rate-limited fetch (its onEvent). */
  pacing: { retries: number; pauses: number };
}

/**
 * Runs the push client in a child process of its own and returns its report. Bounded: a client
 * silent for `timeoutMs` is killed.
 */
export async function runPushClient(
  args: PushClientArgs,
  timeoutMs = 240_000,
): Promise<PushClientReport> {
  const argv = [
    '--mode',
    args.mode,
    '--server',
    args.server,
    '--home',
    args.home,
    '--folder',
    args.folder,
    '--count',
    String(args.count),
    ...(args.pollMs !== undefined ? ['--poll-ms', String(args.pollMs)] : []),
  ];
  const child = await startChild(`push client (${args.mode})`, PUSH_CLIENT_MAIN, argv, timeoutMs);
  try {
    const report = child.info['report'];
    if (typeof report !== 'string') throw new Error('The push client sent no report');
    return JSON.parse(report) as PushClientReport;
  } finally {
    await child.stop();
  }
}

/** `GET /v1/spaces/:id/change-requests/:id/content/page/:id`: ids after known collections. */
export function callKind(method: string, pathname: string): string {
  const collections = new Set([
    'orgs',
    'spaces',
    'change-requests',
    'page',
    'pages',
    'revisions',
    'files',
    'users',
  ]);
  const parts = pathname.split('/');
  const shaped = parts.map((part, i) => (i > 0 && collections.has(parts[i - 1]!) ? ':id' : part));
  return `${method} ${shaped.join('/')}`;
}
