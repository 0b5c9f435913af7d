/**
 * An OpenAPI document's text → its parsed, validated document (runs on a CPU worker: parsing
 * and validating a large specification takes real CPU). JSON or YAML; OpenAPI 3.0 and 3.1 (and
 * Swagger 2.0, which the parser also validates). Internal `$ref`s are resolved for validation
 * and kept as references in the stored document; a reference to another file or URL is refused,
 * so a specification can never make the server read a file or fetch an address.
 */
import { CORE_SCHEMA, load } from 'js-yaml';

export interface ParsedOpenApi {
  ok: true;
  format: 'json' | 'yaml';
  /** The document as JSON text, `$ref`s as written. */
  document: string;
}

export interface OpenApiParseFailure {
  ok: false;
  /** What is wrong, one line each (at most MAX_ERRORS of them). */
  errors: string[];
  /** How many problems there were in all. */
  errorCount: number;
}

export type OpenApiParseResult = ParsedOpenApi | OpenApiParseFailure;

const MAX_ERRORS = 20;
const MAX_MESSAGE = 500;
/**
 * A document whose JSON text would be longer than this is refused, not stored (every version's
 * document is kept, and YAML aliases can make a small text expand enormously).
 */
const MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

const failure = (errors: string[], errorCount = errors.length): OpenApiParseFailure => ({
  ok: false,
  errors: errors.slice(0, MAX_ERRORS).map(oneLine),
  errorCount,
});

/** The first line of a message (the parser adds a code frame after a blank line), bounded. */
function oneLine(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first.length > MAX_MESSAGE ? `${first.slice(0, MAX_MESSAGE)}…` : first;
}

export async function parseOpenApi(text: string): Promise<OpenApiParseResult> {
  const format = /^\s*[{[]/.test(text) ? 'json' : 'yaml';
  let value: unknown;
  try {
    value = format === 'json' ? JSON.parse(text) : load(text, { schema: CORE_SCHEMA });
  } catch (error) {
    return failure([`The document is not valid ${format.toUpperCase()}: ${messageOf(error)}`]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return failure(['The document is not an object']);
  }
  try {
    return await checkDocument(value as Record<string, unknown>, format);
  } catch (error) {
    // Recursion in counting, stringifying or validating: nesting deeper than the stack.
    if (error instanceof RangeError) return failure(['The document is nested too deeply']);
    return failure([messageOf(error)]);
  }
}

async function checkDocument(
  value: Record<string, unknown>,
  format: 'json' | 'yaml',
): Promise<OpenApiParseResult> {
  if (typeof (value['openapi'] ?? value['swagger']) !== 'string') {
    return failure(['The document has no "openapi" version field']);
  }
  const external = externalRefs(value);
  if (external.length > 0) {
    return failure(
      external.map((ref) => `External $ref "${ref}" is not supported: only "#/…" references`),
    );
  }
  // Measured before JSON.stringify, which would expand YAML aliases without limit.
  const tooLarge = `The document expands to more than ${MAX_DOCUMENT_CHARS} characters of JSON`;
  if (expandedChars(value) > MAX_DOCUMENT_CHARS) return failure([tooLarge]);
  const document = JSON.stringify(value);
  if (document.length > MAX_DOCUMENT_CHARS) return failure([tooLarge]);
  // Loaded on first use: every worker thread loads this module, few of them ever parse a spec.
  const { validate } = await import('@readme/openapi-parser');
  // Validation dereferences its input in place: it gets a copy, the stored document keeps its $refs.
  const result = await validate(JSON.parse(document) as never, {
    resolve: { external: false, file: false },
    dereference: { circular: 'ignore' },
  });
  if (!result.valid) {
    const messages = result.errors.map((error) => error.message);
    return failure(messages, messages.length + result.additionalErrors);
  }
  return { ok: true, format, document };
}

/**
 * Every `$ref` that does not point inside the document itself, each once. Each object is visited
 * once: YAML aliases share objects, and revisiting them could take exponential time.
 */
function externalRefs(root: object): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0 && found.size < MAX_ERRORS) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) found.add(child);
      else if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return [...found];
}

/**
 * About how long the document's JSON text is once every shared object is written out in full
 * (escapes aside), measured in time linear in its distinct objects: each one's length is
 * remembered. A cycle (a YAML alias inside its own anchor) counts as infinitely long.
 */
function expandedChars(root: object): number {
  const lengths = new Map<object, number>();
  const lengthOf = (value: unknown): number => {
    if (typeof value === 'string') return value.length + 2;
    if (typeof value !== 'object' || value === null) return String(value).length;
    const known = lengths.get(value);
    if (known !== undefined) return known;
    lengths.set(value, Infinity); // still being measured: meeting it again is a cycle
    const isArray = Array.isArray(value);
    let total = 2;
    for (const [key, child] of Object.entries(value)) {
      total += lengthOf(child) + (isArray ? 1 : key.length + 4);
      if (total > MAX_DOCUMENT_CHARS) break;
    }
    lengths.set(value, total);
    return total;
  };
  return lengthOf(root);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
