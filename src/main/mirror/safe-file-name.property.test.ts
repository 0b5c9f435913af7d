import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePathError, resolveInside } from './resolve-inside';
import {
  MAX_SEGMENT_BYTES,
  safeFileName,
  utf8ByteLength,
} from '../../shared/gitsync/safe-file-name';

const root = path.resolve('/srv/quire-space');
const RUNS = { numRuns: 600 };

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => String.fromCharCode(unit));

/** Pieces that hostile names are built from; mixing them finds interactions single cases miss. */
const pathFragment = fc.constantFrom(
  '..',
  '.',
  '/',
  '\\',
  '\\\\',
  'C:',
  'c:\\',
  '\\\\host\\share',
  '\\\\?\\',
  '\0',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2028',
  ' ',
  '\t',
  '\n',
  '~',
  'etc',
  'passwd',
  '%2e%2e',
  'CON',
  'con.md',
  'aux',
  'LPT1',
  'COM¹',
  '.md',
  'README',
  '-',
  '😀',
  '👩‍👩‍👧‍👦',
  '🇫🇷',
  'e\u0301',
  '\u0301',
  '日本',
  'x'.repeat(120),
);

/** Any string a server might send, weighted toward the nasty ones. */
const serverString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'binary-ascii', maxLength: 80 }),
  fc.string({ unit: 'binary', minLength: 150, maxLength: 400 }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.string({ unit: 'binary', maxLength: 2 })) }),
  fc.array(pathFragment, { maxLength: 12 }).map((parts) => parts.join('')),
  fc
    .array(fc.oneof(pathFragment, fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 16 })
    .map((parts) => parts.join('')),
);

/** C0/C1 controls, DEL, separators and the punctuation Windows forbids. */
function hasForbiddenChar(name: string): boolean {
  return [...name].some((char) => {
    const codePoint = char.codePointAt(0) ?? 0;
    return (
      codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f) || '/\\:*?"<>|'.includes(char)
    );
  });
}
const DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(\.|$)/iu;

function assertSafeSegment(name: string, maxBytes: number): void {
  expect(name.length).toBeGreaterThan(0);
  expect(hasForbiddenChar(name)).toBe(false);
  expect(name).not.toBe('.');
  expect(name).not.toBe('..');
  expect(name).not.toMatch(/^[\s.]|[\s.]$/u);
  expect(name).not.toMatch(DEVICE_NAME);
  expect(utf8ByteLength(name)).toBeLessThanOrEqual(maxBytes);
  // Encodable: no lone surrogates that would turn into U+FFFD on disk.
  expect(Buffer.from(name, 'utf8').toString('utf8')).toBe(name);
  expect(name.normalize('NFC')).toBe(name);
  // A single segment under both path flavours.
  expect(path.posix.basename(name)).toBe(name);
  expect(path.win32.basename(name)).toBe(name);
}

describe('safeFileName properties', () => {
  it('maps any server string to one safe segment directly inside the root', () => {
    fc.assert(
      fc.property(serverString, (raw) => {
        const name = safeFileName(raw);
        assertSafeSegment(name, 200);
        const resolved = resolveInside(root, name);
        expect(path.dirname(resolved)).toBe(root);
        expect(path.basename(resolved)).toBe(name);
      }),
      RUNS,
    );
  });

  it('is idempotent, so a name read back from disk maps to itself', () => {
    fc.assert(
      fc.property(serverString, (raw) => {
        const name = safeFileName(raw);
        expect(safeFileName(name)).toBe(name);
      }),
      RUNS,
    );
  });

  it('respects any byte budget between 16 and 255', () => {
    fc.assert(
      fc.property(
        serverString,
        fc.integer({ min: 16, max: MAX_SEGMENT_BYTES }),
        (raw, maxBytes) => {
          assertSafeSegment(safeFileName(raw, { maxBytes }), maxBytes);
        },
      ),
      RUNS,
    );
  });

  it('keeps a nested page path inside the root, one level per server string', () => {
    fc.assert(
      fc.property(fc.array(serverString, { minLength: 1, maxLength: 6 }), (slugs) => {
        const names = slugs.map((slug) => safeFileName(slug));
        const resolved = resolveInside(root, ...names);
        expect(path.relative(root, resolved).split(path.sep)).toEqual(names);
      }),
      RUNS,
    );
  });

  it('resolves a raw server string inside the root or refuses it, never outside', () => {
    fc.assert(
      fc.property(fc.array(serverString, { minLength: 1, maxLength: 4 }), (segments) => {
        let resolved: string;
        try {
          resolved = resolveInside(root, ...segments);
        } catch (error) {
          expect(error).toBeInstanceOf(UnsafePathError);
          return;
        }
        const relative = path.relative(root, resolved);
        expect(relative === '..' || relative.startsWith(`..${path.sep}`)).toBe(false);
        expect(path.isAbsolute(relative)).toBe(false);
      }),
      RUNS,
    );
  });
});
