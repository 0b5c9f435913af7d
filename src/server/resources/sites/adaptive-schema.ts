import Ajv from 'ajv';
import { badRequest } from '../../http/api-error';

/** The largest adaptive schema accepted, as JSON (a visitor's claims, not a document). */
export const MAX_ADAPTIVE_SCHEMA_BYTES = 32 * 1024;
/** How deeply claim objects may nest. */
export const MAX_CLAIM_DEPTH = 4;
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
const FIELD = 'body.jsonSchema';

export type JsonObject = Record<string, unknown>;

/** The schema of a site nobody has given one: no claims yet. */
export function defaultAdaptiveSchema(): JsonObject {
  return {
    type: 'object',
    properties: {
      unsigned: {
        type: 'object',
        description: UNSIGNED_DESCRIPTION,
        properties: {},
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function allowOnly(value: JsonObject, keys: readonly string[], at: string): void {
  const extra = Object.keys(value).find((key) => !keys.includes(key));
  if (extra !== undefined) throw badRequest(`${at} must not have the property "${extra}"`);
}

/** An object of claims: `{ type: 'object', properties, additionalProperties: false }`. */
function checkClaimObject(value: JsonObject, at: string, depth: number): void {
  allowOnly(value, ['type', 'description', 'properties', 'additionalProperties', 'required'], at);
  if (value['type'] !== 'object') throw badRequest(`${at}.type must be "object"`);
  if (value['additionalProperties'] !== false) {
    throw badRequest(`${at}.additionalProperties must be false`);
  }
  const properties = value['properties'];
  if (!isObject(properties)) throw badRequest(`${at}.properties must be an object`);
  for (const [name, claim] of Object.entries(properties)) {
    checkClaim(claim, `${at}.properties.${name}`, depth + 1);
  }
}

/**
 * One claim: boolean (the spec's claims), or the published API's other kinds: a string or a
 * number, an array of those, or a nested object of claims, each with a `description`.
 */
function checkClaim(claim: unknown, at: string, depth: number): void {
  if (depth > MAX_CLAIM_DEPTH)
    throw badRequest(`${at} nests claims deeper than ${MAX_CLAIM_DEPTH}`);
  if (!isObject(claim)) throw badRequest(`${at} must be an object (a claim's schema)`);
  const type = claim['type'];
  if (claim['description'] !== undefined && typeof claim['description'] !== 'string') {
    throw badRequest(`${at}.description must be a string`);
  }
  if (type === 'object') return checkClaimObject(claim, at, depth);
  if (type === 'array') {
    allowOnly(claim, ['type', 'description', 'items'], at);
    const items = claim['items'];
    if (!isObject(items) || !['boolean', 'string', 'number'].includes(String(items['type']))) {
      throw badRequest(`${at}.items must be a boolean, string or number claim`);
    }
    return checkClaim(items, `${at}.items`, depth + 1);
  }
  if (type === 'boolean' || type === 'string' || type === 'number') {
    allowOnly(claim, ['type', 'description', 'const', 'enum'], at);
    return;
  }
  throw badRequest(`${at}.type must be one of boolean, string, number, array, object`);
}

/**
 * Checks a site's adaptive schema: bounded in size, shaped as the spec says (an object of
 * claims, `unsigned` among them, no other properties), and a valid draft-07 JSON Schema by
 * Ajv's own meta-schema and compiler. Every refusal is a 400 naming the part of the field.
 */
export function checkAdaptiveSchema(jsonSchema: unknown): JsonObject {
  const bytes = Buffer.byteLength(JSON.stringify(jsonSchema) ?? '', 'utf8');
  if (bytes > MAX_ADAPTIVE_SCHEMA_BYTES) {
    throw badRequest(
      `${FIELD} must be at most ${MAX_ADAPTIVE_SCHEMA_BYTES} bytes as JSON (${bytes})`,
    );
  }
  if (!isObject(jsonSchema)) throw badRequest(`${FIELD} must be an object`);
  allowOnly(
    jsonSchema,
    ['$schema', 'type', 'properties', 'additionalProperties', 'required'],
    FIELD,
  );
  const { $schema, ...claims } = jsonSchema;
  if ($schema !== undefined && $schema !== DRAFT_07) {
    throw badRequest(`${FIELD}.$schema must be "${DRAFT_07}" (draft-07)`);
  }
  checkClaimObject(claims, FIELD, 0);
  const unsigned = (jsonSchema['properties'] as JsonObject)['unsigned'];
  if (unsigned !== undefined && (!isObject(unsigned) || unsigned['type'] !== 'object')) {
    throw badRequest(`${FIELD}.properties.unsigned must be an object of claims`);
  }
  compileDraft07(jsonSchema);
  return jsonSchema;
}

/** Meta-validates and compiles with Ajv (draft-07 is its default), strict about unknown keywords. */
function compileDraft07(schema: JsonObject): void {
  const ajv = new Ajv({ strict: true, allErrors: false });
  if (!ajv.validateSchema(schema)) {
    const error = ajv.errors?.[0];
    throw badRequest(
      `${FIELD}${error?.instancePath.replace(/\//g, '.') ?? ''} ${error?.message ?? 'is not a valid draft-07 JSON Schema'}`,
    );
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    throw badRequest(`${FIELD} is not a valid draft-07 JSON Schema: ${(error as Error).message}`);
  }
}
