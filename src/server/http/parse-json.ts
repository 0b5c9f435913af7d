import secureJsonParse from 'secure-json-parse';

/** As Fastify's default JSON parser: keys that would poison prototypes are refused. */
const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

/** JSON text → value, or `{ ok: false }` for text that is not JSON or that poisons prototypes. */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: secureJsonParse.parse(text, undefined, PARSE_OPTIONS) };
  } catch {
    return { ok: false };
  }
}
