import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LAYOUT_RESERVED_NAMES,
  NameAllocator,
  allocateNames,
  collisionKey,
  type NameRequest,
} from './name-allocator';
import { safeFileName } from './safe-file-name';

const page = (stem: string): NameRequest => ({ stem, extension: '.md' });
const folder = (stem: string): NameRequest => ({ stem });

describe('NameAllocator', () => {
  it('leaves distinct Git Sync names unchanged', () => {
    expect(allocateNames([page('getting-started'), folder('create-content'), page('faq')])).toEqual(
      ['getting-started.md', 'create-content', 'faq.md'],
    );
  });

  it('suffixes repeated names before the extension, in input order', () => {
    expect(allocateNames([page('intro'), page('intro'), page('intro')])).toEqual([
      'intro.md',
      'intro-2.md',
      'intro-3.md',
    ]);
    expect(allocateNames([folder('guides'), folder('guides')])).toEqual(['guides', 'guides-2']);
  });

  it('treats names differing only in case as collisions', () => {
    expect(allocateNames([page('Setup'), page('setup'), page('SETUP')])).toEqual([
      'Setup.md',
      'setup-2.md',
      'SETUP-3.md',
    ]);
  });

  it('treats NFC and NFD spellings of the same name as collisions', () => {
    const [first, second] = allocateNames([page('caf\u00e9'), page('cafe\u0301')]);
    expect(first).toBe('caf\u00e9.md');
    expect(second).toBe('caf\u00e9-2.md');
  });

  it('folds beyond simple lowercasing (ß, ligatures, final sigma)', () => {
    expect(allocateNames([page('STRASSE'), page('straße')])).toEqual(['STRASSE.md', 'straße-2.md']);
    expect(collisionKey('ﬁle')).toBe(collisionKey('FILE'));
    expect(collisionKey('ΟΔΟΣ')).toBe(collisionKey('οδος'));
  });

  it('keeps a file and a folder of the same stem apart only when their names differ', () => {
    expect(allocateNames([folder('api'), page('api')])).toEqual(['api', 'api.md']);
    expect(allocateNames([folder('api.md'), page('api')])).toEqual(['api.md', 'api-2.md']);
  });

  it('reserves the layout names so pages titled README or SUMMARY cannot take them', () => {
    expect(LAYOUT_RESERVED_NAMES).toEqual(['README.md', 'SUMMARY.md', '.gitbook']);
    expect(
      allocateNames([page('SUMMARY'), page('readme'), page('Readme'), folder('gitbook')]),
    ).toEqual(['SUMMARY-2.md', 'readme-2.md', 'Readme-3.md', 'gitbook']);
  });

  it('skips a suffixed name that an earlier entry already holds', () => {
    expect(allocateNames([page('intro-2'), page('intro'), page('intro')])).toEqual([
      'intro-2.md',
      'intro.md',
      'intro-3.md',
    ]);
  });

  it('sanitises the stem, so hostile titles become safe, distinct names', () => {
    expect(
      allocateNames([page('../../etc/passwd'), page('/etc/passwd'), page('CON'), page('')]),
    ).toEqual(['etc-passwd.md', 'etc-passwd-2.md', 'CON_.md', 'untitled.md']);
  });

  it('keeps suffixed names of 300-character titles under 255 bytes', () => {
    const title = 'T'.repeat(300);
    const names = allocateNames([page(title), page(title), page(title)]);
    expect(names).toEqual([
      `${'T'.repeat(200)}.md`,
      `${'T'.repeat(200)}-2.md`,
      `${'T'.repeat(200)}-3.md`,
    ]);
  });

  it('keeps emoji names and suffixes them like any other', () => {
    expect(allocateNames([page('🚀 Launch'), page('🚀 launch')])).toEqual([
      '🚀 Launch.md',
      '🚀 launch-2.md',
    ]);
  });

  it('supports GitBook-style asset suffixes and extra reserved names', () => {
    const allocator = new NameAllocator({
      reserved: ['hero.png'],
      suffix: (n) => ` (${n - 1})`,
    });
    expect(allocator.allocate({ stem: 'hero', extension: '.png' })).toBe('hero (1).png');
    expect(allocator.allocate({ stem: 'hero', extension: '.png' })).toBe('hero (2).png');
    expect(allocator.isTaken('HERO (2).PNG')).toBe(true);
  });

  it('rejects extensions and suffixes that would reintroduce unsafe names', () => {
    const allocator = new NameAllocator();
    expect(() => allocator.allocate({ stem: 'x', extension: '/../y' })).toThrow(TypeError);
    expect(() => allocator.allocate({ stem: 'x', extension: 'md' })).toThrow(TypeError);
    const slashy = new NameAllocator({ suffix: () => '/..' });
    slashy.allocate(page('x'));
    expect(() => slashy.allocate(page('x'))).toThrow(TypeError);
  });
});

describe('NameAllocator properties', () => {
  const stem = fc.oneof(
    fc.constantFrom(
      'intro',
      'Intro',
      'INTRO',
      'intro-2',
      'readme',
      'summary',
      'café',
      'cafe\u0301',
    ),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  const request = fc.record({ stem, extension: fc.constantFrom('', '.md') });
  const requests = fc.array(request, { maxLength: 25 });

  it('gives unique, safe names that never collide with the layout, case- or NFC-insensitively', () => {
    fc.assert(
      fc.property(requests, (input) => {
        const names = allocateNames(input);
        const keys = [...LAYOUT_RESERVED_NAMES, ...names].map(collisionKey);
        expect(new Set(keys).size).toBe(keys.length);
        for (const name of names) expect(safeFileName(name, { maxBytes: 255 })).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic and keeps every name when entries are appended after it', () => {
    fc.assert(
      fc.property(requests, requests, (before, after) => {
        const names = allocateNames(before);
        expect(allocateNames(before)).toEqual(names);
        expect(allocateNames([...before, ...after]).slice(0, before.length)).toEqual(names);
      }),
      { numRuns: 500 },
    );
  });
});
