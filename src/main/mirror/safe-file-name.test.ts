import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInside } from './resolve-inside';
import { safeFileName, truncateUtf8, utf8ByteLength } from '../../shared/gitsync/safe-file-name';

const root = path.resolve('/srv/quire-space');

describe('safeFileName: hostile corpus', () => {
  it.each([
    ['../../etc/passwd', 'etc-passwd'],
    ['/abs', 'abs'],
    ['/etc/shadow', 'etc-shadow'],
    ['C:\\x', 'C-x'],
    ['C:', 'C'],
    ['\\\\host\\share', 'host-share'],
    ['\\\\?\\C:\\Windows', 'C-Windows'],
    ['a\0b', 'a-b'],
    ['\0', 'untitled'],
    ['tab\there', 'tab-here'],
    ['line\nbreak\r\n', 'line-break'],
    ['del\u007fete', 'del-ete'],
    ['c1\u0085control\u009f', 'c1-control'],
    ['a*?b', 'a-b'],
    ['what? <why> "how" | here', 'what- -why- -how- - here'],
    ['time 10:30', 'time 10-30'],
    ['\u202Egnp.exe', 'gnp.exe'],
    ['bad\u2028line', 'bad-line'],
    ['\ud800lone\udc00surrogates', 'lone-surrogates'],
    ['.', 'untitled'],
    ['..', 'untitled'],
    ['...', 'untitled'],
    ['', 'untitled'],
    ['   ', 'untitled'],
    ['/', 'untitled'],
    ['.gitbook', 'gitbook'],
    ['.hidden.md', 'hidden.md'],
    ['trailing. . .', 'trailing'],
    ['  padded  ', 'padded'],
  ])('%j → %j', (raw, expected) => {
    expect(safeFileName(raw)).toBe(expected);
  });

  it.each([
    ['CON', 'CON_'],
    ['con', 'con_'],
    ['con.md', 'con_.md'],
    ['Con.tar.gz', 'Con_.tar.gz'],
    ['CON .md', 'CON_ .md'],
    ['aux', 'aux_'],
    ['PRN', 'PRN_'],
    ['nul ', 'nul_'],
    ['COM1', 'COM1_'],
    ['lpt9.txt', 'lpt9_.txt'],
    ['COM¹', 'COM¹_'],
    ['CONOUT$', 'CONOUT$_'],
  ])('reserved Windows device name %j → %j', (raw, expected) => {
    expect(safeFileName(raw)).toBe(expected);
  });

  it.each(['CONSOLE', 'console.md', 'COM10', 'auxiliary', 'nullable', 'LPT', 'con_'])(
    'leaves %j alone (not a device name)',
    (raw) => {
      expect(safeFileName(raw)).toBe(raw);
    },
  );

  it('caps a 300-character title at 200 UTF-8 bytes, keeping its start', () => {
    const title = 'A very long title '.repeat(17).slice(0, 300);
    const name = safeFileName(title);
    expect(utf8ByteLength(name)).toBeLessThanOrEqual(200);
    expect(title.startsWith(name)).toBe(true);
    expect(name).not.toMatch(/[ .]$/);
  });

  it('keeps a short extension when shortening a long asset name', () => {
    const name = safeFileName(`${'x'.repeat(300)}.png`);
    expect(name).toBe(`${'x'.repeat(196)}.png`);
  });

  it('never splits a surrogate pair or an emoji sequence when shortening', () => {
    const rocket = '🚀'; // 4 bytes, 2 UTF-16 units
    expect(safeFileName(rocket.repeat(300))).toBe(rocket.repeat(50));
    const family = '👩‍👩‍👧‍👦'; // 25 bytes, one grapheme
    expect(safeFileName(family.repeat(20))).toBe(family.repeat(8));
    const flag = '🇫🇷'; // 8 bytes, one grapheme
    expect(safeFileName(`${'a'.repeat(197)}${flag}`)).toBe('a'.repeat(197));
  });

  it('cuts a single oversized grapheme between code points rather than giving up', () => {
    const zalgo = `Q${'\u0301'.repeat(300)}`; // Q has no precomposed acute form
    const name = safeFileName(zalgo);
    expect(name.startsWith('Q\u0301\u0301')).toBe(true);
    expect(utf8ByteLength(name)).toBeLessThanOrEqual(200);
  });

  it('keeps emoji, accents and non-Latin scripts', () => {
    for (const raw of ['🚀 Launch', '👩‍👩‍👧‍👦 family', 'Café', 'Привет', '日本語のページ', 'مرحبا']) {
      expect(safeFileName(raw)).toBe(raw);
    }
  });

  it('normalises to NFC so NFD input from macOS gives the same name', () => {
    expect(safeFileName('Cafe\u0301')).toBe('Caf\u00e9');
  });

  it('keeps real hyphens and only collapses runs of replaced characters', () => {
    expect(safeFileName('a--b')).toBe('a--b');
    expect(safeFileName('a//\\\\b')).toBe('a-b');
    expect(safeFileName('-leading-and-trailing-')).toBe('-leading-and-trailing-');
  });

  it('passes Git Sync names through byte for byte', () => {
    for (const raw of [
      'getting-started',
      'README',
      'GITBOOK_ASSISTANT_SKILL (1)',
      '2023-04-07 22.56.09.gif',
      '2Screenshot Google Chrome - 24-07-2023 2@2x (1).png',
      'hero (1).png',
      'v1.2.3',
      'a'.repeat(200),
    ]) {
      expect(safeFileName(raw)).toBe(raw);
    }
  });

  it('is deterministic and idempotent', () => {
    for (const raw of ['../../etc/passwd', 'CON', '🚀'.repeat(300), 'e\u0301\u0301x']) {
      const once = safeFileName(raw);
      expect(safeFileName(raw)).toBe(once);
      expect(safeFileName(once)).toBe(once);
    }
  });

  it('stays inside the root for every corpus entry', () => {
    for (const raw of ['../../etc/passwd', '/abs', 'C:\\x', '\\\\host\\share', 'a\0b', '..']) {
      const resolved = resolveInside(root, safeFileName(raw));
      expect(path.dirname(resolved)).toBe(root);
    }
  });

  it('honours maxBytes and a custom fallback', () => {
    expect(safeFileName('x'.repeat(100), { maxBytes: 16 })).toBe('x'.repeat(16));
    expect(safeFileName('..', { fallback: 'page' })).toBe('page');
  });

  it('rejects an unsafe fallback or an unusable byte budget', () => {
    expect(() => safeFileName('', { fallback: '../x' })).toThrow(TypeError);
    expect(() => safeFileName('', { fallback: 'CON' })).toThrow(TypeError);
    expect(() => safeFileName('', { fallback: '' })).toThrow(TypeError);
    expect(() => safeFileName('x', { maxBytes: 256 })).toThrow(RangeError);
    expect(() => safeFileName('x', { maxBytes: 8 })).toThrow(RangeError);
  });
});

describe('utf8ByteLength / truncateUtf8', () => {
  it('counts UTF-8 bytes like Buffer does', () => {
    for (const text of ['', 'abc', 'é', '日本', '🚀', '\ud800']) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('truncates on grapheme boundaries', () => {
    expect(truncateUtf8('ab🚀', 5)).toBe('ab');
    expect(truncateUtf8('ab🚀', 6)).toBe('ab🚀');
    expect(truncateUtf8('e\u0301e\u0301', 4)).toBe('e\u0301');
  });
});
