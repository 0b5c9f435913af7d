/**
 * Frontmatter YAML as Git Sync reads and writes it, with js-yaml 4 (a pure library, so both the
 * server and the desktop use this one reader).
 *
 * Writing: Git Sync's output is that of js-yaml 4's `dump` with its default options (`>-` folding
 * at 80 columns minus the indentation, single quotes for strings YAML would read as something
 * else, plain scalars with commas, an undefined mapping value left out); the corpus test checks
 * it against every frontmatter block of GitBook's own synced docs repository. gray-matter
 * bundles js-yaml 3, whose output differs (it quotes commas), so it is not used for writing.
 *
 * Reading: values are made plain, JSON-safe data, so what one side reads the other reads the
 * same: a timestamp becomes its ISO string, a non-finite number null, binary its base64.
 */
import yaml from 'js-yaml';
import type { FrontmatterProblem } from './frontmatter-problem';

export type YamlValue =
  | string
  | number
  | boolean
  | null
  | Date
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue | undefined };

/** A frontmatter mapping as read: plain data (no Date once read, see the module comment). */
export type FrontmatterData = Record<string, YamlValue>;

/** A YAML alias can make a tiny block huge; more values than this are refused. */
const NODE_BUDGET = 10_000;
const MAX_DEPTH = 32;

/** The YAML text of `value` (a mapping at the top level), ending with a newline. */
export function dumpYaml(value: YamlValue): string {
  return yaml.dump(value);
}

export type ParsedYaml = { data: FrontmatterData } | { problem: FrontmatterProblem };

/**
 * Parses the YAML between a page's `---` delimiters into plain values. `firstLine` is the page
 * line the YAML starts on (2: right after the opening `---`), so errors name the page's line.
 * Only YAML is parsed (js-yaml's default schema runs no code); an empty block is `{}`.
 */
export function parseFrontmatterYaml(text: string, firstLine = 2): ParsedYaml {
  let parsed: unknown;
  try {
    parsed = yaml.load(text);
  } catch (error) {
    return { problem: yamlProblem(error, firstLine) };
  }
  if (parsed === null || parsed === undefined) return { data: {} };
  if (typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof Date) {
    return { problem: { kind: 'not-mapping' } };
  }
  try {
    return { data: plainCopy(parsed, { nodes: 0 }, 0) as FrontmatterData };
  } catch (error) {
    if (error instanceof TooLarge) return { problem: { kind: 'too-large' } };
    throw error;
  }
}

/** Thrown out of plainCopy to stop at once: an alias bomb is never expanded. */
class TooLarge extends Error {}

function yamlProblem(error: unknown, firstLine: number): FrontmatterProblem {
  if (error instanceof yaml.YAMLException) {
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const line = typeof mark?.line === 'number' ? mark.line + firstLine : undefined;
    return {
      kind: 'yaml',
      reason: error.reason || 'syntax error',
      ...(line !== undefined ? { line, column: (mark?.column ?? 0) + 1 } : {}),
    };
  }
  return { kind: 'yaml', reason: error instanceof Error ? error.message : String(error) };
}

/** A deep copy into plain values that refuses alias bombs and deep nesting (TooLarge). */
function plainCopy(value: unknown, budget: { nodes: number }, depth: number): YamlValue {
  budget.nodes += 1;
  if (budget.nodes > NODE_BUDGET || depth > MAX_DEPTH) throw new TooLarge();
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return base64(value);
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, budget, depth + 1));
  if (typeof value === 'object') {
    const copy: Record<string, YamlValue> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own data only: a `__proto__` key must not reach the prototype.
      Object.defineProperty(copy, key, {
        value: plainCopy(item, budget, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return null;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** `!!binary` values as base64 text (no Buffer or btoa here: this module runs anywhere). */
function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const chunk = (a << 16) | (b << 8) | c;
    text += BASE64[(chunk >> 18) & 63] ?? '';
    text += BASE64[(chunk >> 12) & 63] ?? '';
    text += i + 1 < bytes.length ? (BASE64[(chunk >> 6) & 63] ?? '') : '=';
    text += i + 2 < bytes.length ? (BASE64[chunk & 63] ?? '') : '=';
  }
  return text;
}
