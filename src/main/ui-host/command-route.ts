import type { IncomingMessage, ServerResponse } from 'node:http';
import secureJsonParse from 'secure-json-parse';
import type { CommandError } from '../../shared/contract/command-error';
import { parseCommandArgs } from '../../shared/contract/parse-command-args';
import { isCommandName, type QuireCommandHandlers } from '../../shared/contract/quire-commands';
import { dispatchCommand } from '../app/dispatch-command';
import { COMMON_HEADERS } from './static-files';

/**
 * Largest command body: a merged conflict may carry a whole page (2,000,000 characters, up to
 * three bytes each in UTF-8, some escaped in JSON).
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * `POST /api/commands/<name>`: the body's JSON is checked against the command's arguments
 * (parseCommandArgs) and dispatched; the answer is the CommandOutcome as JSON, a failure included
 * (200: the command ran and said no). Unknown commands are 404, unreadable bodies 400 or 413.
 */
export async function runCommandRoute(
  handlers: QuireCommandHandlers,
  name: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (!isCommandName(name)) {
    sendJson(response, 404, failure('name', `no command is called ${JSON.stringify(name)}`));
    return;
  }
  const body = await readBody(request);
  if (body === 'too-large') {
    sendJson(response, 413, failure('args', `the body is larger than ${MAX_BODY_BYTES} bytes`));
    return;
  }
  let value: unknown;
  try {
    value = secureJsonParse.parse(body.toString('utf8'), undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch {
    sendJson(response, 400, failure('args', 'the body is not JSON'));
    return;
  }
  const parsed = parseCommandArgs(name, value);
  if (!parsed.ok) {
    sendJson(response, 200, { ok: false, error: parsed.error });
    return;
  }
  sendJson(response, 200, await dispatchCommand(handlers, name, parsed.args));
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  response.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
}

function failure(field: string, message: string): { ok: false; error: CommandError } {
  return { ok: false, error: { kind: 'invalid-argument', field, message } };
}

async function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even when too large: leaving the loop early would destroy the socket the
  // answer goes out on.
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks);
}
