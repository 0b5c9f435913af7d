/**
 * The one gate through which untrusted server strings (page slugs, titles, asset names) become
 * file names in the Markdown mirror. The result is a single path segment that Linux, macOS and
 * Windows all accept and that cannot climb out of the folder it is joined to.
 *
 * Normal Git Sync slugs (`getting-started`, `GITBOOK_ASSISTANT_SKILL (1)`) pass through byte for
 * byte, because the mirror must reproduce GitBook's own file names; only hostile or
 * non-portable input is rewritten.
 */

export interface SafeFileNameOptions {
  /** Returned when nothing usable is left (empty, only dots or separators). Must itself be safe. */
  readonly fallback?: string;
  /**
   * Upper bound of the result in UTF-8 bytes. The default leaves room for a collision suffix and
   * an extension under the 255-byte limit of ext4, APFS and NTFS.
   */
  readonly maxBytes?: number;
}

export const DEFAULT_FALLBACK_NAME = 'untitled';
export const DEFAULT_MAX_NAME_BYTES = 200;
/** The per-name limit the target file systems share (NTFS counts UTF-16 units, never more). */
export const MAX_SEGMENT_BYTES = 255;
/** Below this, a device-name suffix and a short extension could no longer fit. */
const MIN_MAX_BYTES = 16;

/**
 * Windows device names: `CON`, `con.md` and `CON .txt` all open the device instead of a file.
 * COM0/LPT0 and the superscript digits are listed as reserved in current Windows documentation.
 */
const WINDOWS_DEVICE_NAMES = new Set([
  'CON',
  'PRN',
  'AUX',
  'NUL',
  'CONIN$',
  'CONOUT$',
  ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '¹', '²', '³'].flatMap((digit) => [
    `COM${digit}`,
    `LPT${digit}`,
  ]),
]);

/** A short ASCII extension worth keeping when a long name is shortened (`.md`, `.png`). */
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Maps one untrusted string to a safe, non-empty, single file-name segment. Deterministic. */
export function safeFileName(raw: string, options: SafeFileNameOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_NAME_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < MIN_MAX_BYTES || maxBytes > MAX_SEGMENT_BYTES) {
    throw new RangeError(`maxBytes must be an integer in [${MIN_MAX_BYTES}, ${MAX_SEGMENT_BYTES}]`);
  }
  const fallback = options.fallback ?? DEFAULT_FALLBACK_NAME;
  // A fallback that needed rewriting would silently bypass the rules this function enforces.
  if (fallback === '' || sanitize(fallback, maxBytes) !== fallback) {
    throw new TypeError(`fallback ${JSON.stringify(fallback)} is not itself a safe file name`);
  }
  const name = sanitize(String(raw), maxBytes);
  return name === '' ? fallback : name;
}

/** The UTF-8 length of `text`; a lone surrogate counts as the 3 bytes of U+FFFD it encodes to. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * The longest prefix of `text` within `maxBytes` UTF-8 bytes that ends on a grapheme boundary,
 * so an emoji sequence or an accented letter is never cut in half. A single grapheme larger than
 * the budget (e.g. a letter with hundreds of combining marks) is cut between code points instead,
 * which still never splits a surrogate pair.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  let prefix = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8ByteLength(segment);
    if (used + size > maxBytes) break;
    prefix += segment;
    used += size;
  }
  if (prefix !== '') return prefix;
  for (const char of text) {
    const size = utf8ByteLength(char);
    if (used + size > maxBytes) break;
    prefix += char;
    used += size;
  }
  return prefix;
}

/** Returns '' when nothing usable is left; the caller substitutes the fallback. */
function sanitize(raw: string, maxBytes: number): string {
  // null marks a run of unsafe characters, so edge trimming can drop it but keep real hyphens.
  const tokens: (string | null)[] = [];
  for (const char of raw.normalize('NFC')) {
    if (!isUnsafe(char)) tokens.push(char);
    else if (tokens.at(-1) !== null) tokens.push(null);
  }
  let start = 0;
  let end = tokens.length;
  while (start < end && isEdgeJunk(tokens[start])) start += 1;
  while (end > start && isEdgeJunk(tokens[end - 1])) end -= 1;
  let name = tokens
    .slice(start, end)
    .map((token) => token ?? '-')
    .join('');
  if (name === '') return '';

  name = fitBytes(name, maxBytes);
  const device = deviceNamePrefix(name);
  if (device === null) return name;
  // The `_` keeps the name recognisable while making it an ordinary file on Windows.
  if (utf8ByteLength(name) + 1 > maxBytes) name = fitBytes(name, maxBytes - 1);
  return `${name.slice(0, device.length)}_${name.slice(device.length)}`;
}

/** Shortens to `maxBytes`, keeping a short extension so `photo.png` stays a PNG. */
function fitBytes(name: string, maxBytes: number): string {
  if (utf8ByteLength(name) <= maxBytes) return name;
  const extension = EXTENSION.exec(name)?.[0];
  if (extension !== undefined && extension.length < name.length) {
    const stem = trimTrailing(
      truncateUtf8(name.slice(0, -extension.length), maxBytes - extension.length),
    );
    if (stem !== '') return stem + extension;
  }
  return trimTrailing(truncateUtf8(name, maxBytes));
}

/** Windows ignores trailing spaces and dots, so `foo.` and `foo` would be the same file. */
function trimTrailing(name: string): string {
  return name.replace(/[\s.]+$/u, '');
}

/** The device name at the start of `name` if Windows would treat the whole name as a device. */
function deviceNamePrefix(name: string): string | null {
  const dot = name.indexOf('.');
  const base = dot === -1 ? name : name.slice(0, dot);
  const device = base.replace(/ +$/, '');
  return WINDOWS_DEVICE_NAMES.has(device.toUpperCase()) ? device : null;
}

function isEdgeJunk(token: string | null | undefined): boolean {
  // Leading dots would make hidden files (`.gitbook`), trailing ones vanish on Windows.
  return token === null || token === undefined || token === '.' || /^\s$/u.test(token);
}

function isUnsafe(char: string): boolean {
  const codePoint = char.codePointAt(0) ?? 0;
  return (
    codePoint < 0x20 || // C0 controls, NUL included
    (codePoint >= 0x7f && codePoint <= 0x9f) || // DEL and C1 controls
    '/\\:*?"<>|'.includes(char) || // separators and Windows-reserved punctuation
    (codePoint >= 0xd800 && codePoint <= 0xdfff) || // lone surrogates cannot be encoded
    codePoint === 0x2028 || // line and paragraph separators would break SUMMARY.md links
    codePoint === 0x2029 ||
    (codePoint >= 0x202a && codePoint <= 0x202e) || // bidi overrides disguise extensions
    (codePoint >= 0x2066 && codePoint <= 0x2069) // bidi isolates, same attack
  );
}
