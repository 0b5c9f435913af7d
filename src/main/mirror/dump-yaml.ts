/**
 * Serialises frontmatter values exactly the way GitBook's Git Sync writes them, so a page
 * mirrored by Quire and the same page synced by GitBook are byte-identical.
 *
 * Git Sync's output is that of js-yaml 4's `dump` with default options: `>-` folding at 80
 * columns minus the indentation, single quotes for strings YAML would read as something else
 * (`'1.0'`), plain scalars with commas (js-yaml 3, the version gray-matter bundles, quotes those,
 * which is why it cannot be used here), double quotes with `\_` for a no-break space. Only the
 * value kinds frontmatter can hold are supported: plain objects, arrays, strings, finite and
 * special numbers, booleans, null and dates. The rules below are js-yaml 4's, ported for that
 * subset and checked against every frontmatter block of GitBook's own synced docs repository.
 */

export type YamlValue =
  | string
  | number
  | boolean
  | null
  | Date
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue | undefined };

const INDENT = 2;
const LINE_WIDTH = 80;

/** The YAML text of `value` (a mapping at the top level), ending with a newline. */
export function dumpYaml(value: YamlValue): string {
  const node = writeNode(value, 0, true, false);
  return `${node ?? 'null'}\n`;
}

/**
 * `compact`: the node starts on the line of its parent's `- ` or the document start, so a
 * mapping or sequence does not open with a line break. Returns undefined for values YAML cannot
 * hold (undefined, functions), which the parent then skips as js-yaml does.
 */
function writeNode(
  value: unknown,
  level: number,
  compact: boolean,
  isKey: boolean,
): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return writeScalar(value, level, isKey);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return writeNumber(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : writeBlockSequence(value, level, compact);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0 ? '{}' : writeBlockMapping(entries, level, compact);
}

function nextLine(level: number): string {
  return `\n${' '.repeat(INDENT * level)}`;
}

function writeBlockMapping(
  entries: readonly [string, unknown][],
  level: number,
  compact: boolean,
): string {
  let result = '';
  for (const [key, item] of entries) {
    const keyText = writeNode(key, level + 1, true, true);
    if (keyText === undefined) continue;
    // js-yaml switches to an explicit `? key` pair for keys longer than 1024 characters.
    const explicit = keyText.length > 1024;
    const valueText = writeNode(item, level + 1, explicit, false);
    if (valueText === undefined) continue;
    let pair = !compact || result !== '' ? nextLine(level) : '';
    if (explicit) pair += keyText.startsWith('\n') ? '?' : '? ';
    pair += keyText;
    if (explicit) pair += nextLine(level);
    pair += valueText.startsWith('\n') ? ':' : ': ';
    pair += valueText;
    result += pair;
  }
  return result === '' ? '{}' : result;
}

function writeBlockSequence(items: readonly unknown[], level: number, compact: boolean): string {
  let result = '';
  for (const item of items) {
    // A missing element is written as null so the indices of the others do not shift.
    const text = writeNode(item === undefined ? null : item, level + 1, true, false);
    if (text === undefined) continue;
    if (!compact || result !== '') result += nextLine(level);
    result += text.startsWith('\n') ? '-' : '- ';
    result += text;
  }
  return result === '' ? '[]' : result;
}

function writeNumber(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Infinity) return '.inf';
  if (value === -Infinity) return '-.inf';
  if (Object.is(value, -0)) return '-0.0';
  if (Number.isInteger(value)) return value.toString(10);
  const text = value.toString(10);
  // `1e+21` would read back as a string: YAML floats need a dot before the exponent.
  return /^[-+]?[0-9]+e/.test(text) ? text.replace('e', '.e') : text;
}

// --- scalars ---------------------------------------------------------------------------------

type ScalarStyle = 'plain' | 'single' | 'literal' | 'folded' | 'double';

/** Strings YAML 1.1 readers take as booleans; js-yaml quotes them for compatibility. */
const DEPRECATED_BOOLEANS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
]);
const DEPRECATED_BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

function writeScalar(text: string, level: number, isKey: boolean): string {
  if (text.length === 0) return "''";
  if (DEPRECATED_BOOLEANS.has(text) || DEPRECATED_BASE60.test(text)) return `'${text}'`;

  const indent = INDENT * Math.max(1, level);
  // Deeper values get a narrower width, down to 40 columns.
  const lineWidth = Math.max(Math.min(LINE_WIDTH, 40), LINE_WIDTH - indent);

  switch (chooseStyle(text, isKey, lineWidth)) {
    case 'plain':
      return text;
    case 'single':
      return `'${text.replace(/'/g, "''")}'`;
    case 'literal':
      return `|${blockHeader(text)}${dropEndingNewline(indentLines(text, indent))}`;
    case 'folded':
      return `>${blockHeader(text)}${dropEndingNewline(indentLines(foldString(text, lineWidth), indent))}`;
    case 'double':
      return `"${escapeString(text)}"`;
  }
}

function chooseStyle(text: string, singleLineOnly: boolean, lineWidth: number): ScalarStyle {
  let hasLineBreak = false;
  let hasFoldableLine = false;
  let previousLineBreak = -1;
  let plain =
    isPlainSafeFirst(codePointAt(text, 0)) && isPlainSafeLast(codePointAt(text, text.length - 1));
  let prev: number | null = null;
  let i = 0;
  // Widths are counted in UTF-16 units, as js-yaml counts them.
  for (; i < text.length; i += codePointAt(text, i) >= 0x10000 ? 2 : 1) {
    const char = codePointAt(text, i);
    if (!singleLineOnly && char === LINE_FEED) {
      hasLineBreak = true;
      // A line can be folded when it is too long and not more-indented.
      hasFoldableLine ||=
        i - previousLineBreak - 1 > lineWidth && text[previousLineBreak + 1] !== ' ';
      previousLineBreak = i;
    } else if (!isPrintable(char)) {
      return 'double';
    }
    plain &&= isPlainSafe(char, prev);
    prev = char;
  }
  if (!singleLineOnly) {
    hasFoldableLine ||=
      i - previousLineBreak - 1 > lineWidth && text[previousLineBreak + 1] !== ' ';
  }
  if (!hasLineBreak && !hasFoldableLine) {
    return plain && !resolvesAsOtherType(text) ? 'plain' : 'single';
  }
  return hasFoldableLine ? 'folded' : 'literal';
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const BOM = 0xfeff;
const SHARP = 0x23;
const COLON = 0x3a;

function codePointAt(text: string, index: number): number {
  return text.codePointAt(index) ?? 0;
}

function isPrintable(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa1 && c <= 0xd7ff && c !== 0x2028 && c !== 0x2029) ||
    (c >= 0xe000 && c <= 0xfffd && c !== BOM) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

function isWhitespace(c: number | null): boolean {
  return c === SPACE || c === TAB;
}

function isNsCharOrWhitespace(c: number | null): boolean {
  return c !== null && isPrintable(c) && c !== BOM && c !== CARRIAGE_RETURN && c !== LINE_FEED;
}

/** ns-plain-char in block context (flow indicators such as `,` are allowed there). */
function isPlainSafe(c: number, prev: number | null): boolean {
  const cIsNsCharOrWhitespace = isNsCharOrWhitespace(c);
  const cIsNsChar = cIsNsCharOrWhitespace && !isWhitespace(c);
  return (
    (cIsNsCharOrWhitespace && c !== SHARP && !(prev === COLON && !cIsNsChar)) ||
    (isNsCharOrWhitespace(prev) && !isWhitespace(prev) && c === SHARP) ||
    (prev === COLON && cIsNsChar)
  );
}

/** Characters that may not start a plain scalar (YAML indicators and whitespace). */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|=>\'"%@`'].map((char) => char.charCodeAt(0)));

function isPlainSafeFirst(c: number): boolean {
  return isPrintable(c) && c !== BOM && !isWhitespace(c) && !NOT_FIRST.has(c);
}

function isPlainSafeLast(c: number): boolean {
  return !isWhitespace(c) && c !== COLON;
}

/** Whether a plain scalar would be read back as null, a boolean, a number, a date or `<<`. */
function resolvesAsOtherType(text: string): boolean {
  return (
    /^(?:~|null|Null|NULL)$/.test(text) ||
    /^(?:true|True|TRUE|false|False|FALSE)$/.test(text) ||
    isYamlInteger(text) ||
    isYamlFloat(text) ||
    YAML_DATE.test(text) ||
    YAML_TIMESTAMP.test(text) ||
    text === '<<'
  );
}

/** js-yaml 4's integer resolver: decimal, or `0b`/`0x`/`0o` prefixed, and finite. */
function isYamlInteger(text: string): boolean {
  const match = /^[-+]?(?:0b([01]+)|0x([0-9a-fA-F]+)|0o([0-7]+)|([0-9]+))$/.exec(text);
  if (!match) return false;
  const [, binary, hex, octal] = match;
  const sign = text.startsWith('-') ? -1 : 1;
  const unsigned = text.replace(/^[-+]/, '');
  const value =
    binary !== undefined
      ? parseInt(binary, 2)
      : hex !== undefined
        ? parseInt(hex, 16)
        : octal !== undefined
          ? parseInt(octal, 8)
          : parseInt(unsigned, 10);
  // A decimal too long for a double reads back as a string, so js-yaml leaves it plain.
  return Number.isFinite(sign * value);
}

const YAML_FLOAT =
  /^(?:[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const YAML_FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

function isYamlFloat(text: string): boolean {
  if (!YAML_FLOAT.test(text)) return false;
  return Number.isFinite(parseFloat(text)) || YAML_FLOAT_SPECIAL.test(text);
}

const YAML_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const YAML_TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$/;

// --- block scalars ---------------------------------------------------------------------------

function blockHeader(text: string): string {
  const indentIndicator = /^\n* /.test(text) ? String(INDENT) : '';
  const clip = text.endsWith('\n');
  const keep = clip && (text[text.length - 2] === '\n' || text === '\n');
  const chomp = keep ? '+' : clip ? '' : '-';
  return `${indentIndicator}${chomp}\n`;
}

function dropEndingNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

function indentLines(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text.replace(/[^\n]*\n?/g, (line) =>
    line.length > 0 && line !== '\n' ? pad + line : line,
  );
}

/**
 * Folded style: k consecutive newlines read back as k-1, except around more-indented lines, so
 * each content line is re-broken greedily and paragraph breaks get one extra newline.
 */
function foldString(text: string, width: number): string {
  const firstBreak = text.indexOf('\n');
  const firstEnd = firstBreak === -1 ? text.length : firstBreak;
  let result = foldLine(text.slice(0, firstEnd), width);
  let prevMoreIndented = text[0] === '\n' || text[0] === ' ';
  const lineRe = /(\n+)([^\n]*)/g;
  lineRe.lastIndex = firstEnd;
  for (let match = lineRe.exec(text); match; match = lineRe.exec(text)) {
    const prefix = match[1] ?? '';
    const line = match[2] ?? '';
    const moreIndented = line.startsWith(' ');
    result += prefix + (!prevMoreIndented && !moreIndented && line !== '' ? '\n' : '');
    result += foldLine(line, width);
    prevMoreIndented = moreIndented;
  }
  return result;
}

/** Greedy line breaking at single spaces: the longest line within `width`, else the shortest over. */
function foldLine(line: string, width: number): string {
  if (line === '' || line.startsWith(' ')) return line;
  const breakRe = / [^ ]/g;
  let start = 0;
  let curr = 0;
  let result = '';
  for (let match = breakRe.exec(line); match; match = breakRe.exec(line)) {
    const next = match.index;
    if (next - start > width) {
      const end = curr > start ? curr : next;
      result += `\n${line.slice(start, end)}`;
      start = end + 1;
    }
    curr = next;
  }
  result += '\n';
  if (line.length - start > width && curr > start) {
    result += `${line.slice(start, curr)}\n${line.slice(curr + 1)}`;
  } else {
    result += line.slice(start);
  }
  return result.slice(1);
}

// --- double-quoted ---------------------------------------------------------------------------

const ESCAPES = new Map<number, string>([
  [0x00, '\\0'],
  [0x07, '\\a'],
  [0x08, '\\b'],
  [0x09, '\\t'],
  [0x0a, '\\n'],
  [0x0b, '\\v'],
  [0x0c, '\\f'],
  [0x0d, '\\r'],
  [0x1b, '\\e'],
  [0x22, '\\"'],
  [0x5c, '\\\\'],
  [0x85, '\\N'],
  [0xa0, '\\_'],
  [0x2028, '\\L'],
  [0x2029, '\\P'],
]);

function escapeString(text: string): string {
  let result = '';
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    const escape = ESCAPES.get(c);
    if (escape === undefined && isPrintable(c)) result += char;
    else result += escape ?? encodeHex(c);
  }
  return result;
}

function encodeHex(c: number): string {
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (c <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}
