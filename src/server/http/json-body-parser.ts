/**
 * Request bodies as JSON, parsed the way Fastify's default parser does (secure-json-parse:
 * `__proto__` and `constructor.prototype` keys are refused), but a large body is parsed on the
 * worker threads: a 10 MB body must not hold every other request for tens of milliseconds.
 */
import { errorCodes } from 'fastify';
import type { TypedApp } from './typed-app';
import type { CpuPool } from '../workers/cpu-pool';
import { parseJson, type ParsedJson } from './parse-json';

/** Smaller bodies parse faster here than the hop to a worker and back. */
const INLINE_JSON_BYTES = 256 * 1024;

export function installJsonBodyParser(app: TypedApp, cpu: CpuPool): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (_request: unknown, body: Buffer) => {
      if (body.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
      let parsed: ParsedJson;
      if (body.length <= INLINE_JSON_BYTES) parsed = parseJson(body.toString('utf8'));
      else {
        // A copy the worker may own: Fastify's buffer can be a slice of a larger one.
        const bytes = new Uint8Array(body);
        parsed = await cpu.run('json', { bytes }).catch(() => ({ ok: false as const }));
      }
      if (!parsed.ok) throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
      return parsed.value;
    },
  );
}
