/** Sub-schema keywords holding one schema. `if` and `not` are absent on purpose (see below). */
const ONE_SCHEMA = ['items', 'then', 'else', 'contains', 'additionalItems'] as const;
/** Sub-schema keywords holding a list of schemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Sub-schema keywords holding a map of schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'] as const;
/** Keywords that put further properties of the same object under other schemas. */
const COMPOSED = ['allOf', 'anyOf', 'oneOf', 'if', 'patternProperties', 'additionalProperties'];

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of a JSON Schema in which every object that lists its `properties` accepts no others
 * (`additionalProperties: false`), so a body property an operation does not define is refused
 * instead of silently ignored. Left open: objects whose other properties are described elsewhere
 * (`allOf`/`anyOf`/`oneOf`/`if` alongside, `patternProperties`, an explicit
 * `additionalProperties`, records and free-form values), and the conditions of `if` and `not`,
 * which must keep matching the objects they test (closing `if: { properties: { operation } }`
 * would make every condition false).
 */
export function closeObjectSchemas(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const closed: Schema = { ...schema };
  for (const key of ONE_SCHEMA) {
    if (isSchema(closed[key])) closed[key] = closeObjectSchemas(closed[key]);
  }
  for (const key of SCHEMA_LISTS) {
    const list = closed[key];
    if (Array.isArray(list)) closed[key] = list.map(closeObjectSchemas);
  }
  for (const key of SCHEMA_MAPS) {
    const map = closed[key];
    if (isSchema(map)) {
      closed[key] = Object.fromEntries(
        Object.entries(map).map(([name, value]) => [name, closeObjectSchemas(value)]),
      );
    }
  }
  if (isSchema(closed['additionalProperties'])) {
    closed['additionalProperties'] = closeObjectSchemas(closed['additionalProperties']);
  }
  const open = COMPOSED.some((key) => schema[key] !== undefined);
  if (isSchema(schema['properties']) && !open) closed['additionalProperties'] = false;
  return closed;
}
