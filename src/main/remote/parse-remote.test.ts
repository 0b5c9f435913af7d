import { describe, expect, it } from 'vitest';
import { RemoteProtocolError } from './errors';
import {
  isDeletedSpace,
  parseFile,
  parseOrganization,
  parsePage,
  parseSpace,
  parseUser,
  walkPages,
} from './parse-remote';

describe('parse-remote', () => {
  it('keeps the known fields of a page and ignores the rest', () => {
    const page = parsePage({
      object: 'page',
      id: 'p1',
      title: 'Intro',
      kind: 'sheet',
      type: 'document',
      slug: 'intro',
      path: 'intro',
      emoji: '1f44b',
      description: 'Start here',
      hidden: false,
      noIndex: true,
      layout: { cover: true },
      cover: { ref: { kind: 'file', file: 'f1' } },
      urls: { app: 'https://app/x' },
      documentId: 'd1',
      markdown: '# Intro\n',
      somethingNew: { x: 1 },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
      pages: [{ id: 'p2', title: 'Child', type: 'document', pages: [] }],
    });
    expect(page).toEqual({
      id: 'p1',
      type: 'document',
      title: 'Intro',
      slug: 'intro',
      path: 'intro',
      emoji: '1f44b',
      description: 'Start here',
      hidden: false,
      noIndex: true,
      layout: { cover: true },
      cover: { ref: { kind: 'file', file: 'f1' } },
      markdown: '# Intro\n',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
      pages: [{ id: 'p2', type: 'document', title: 'Child', pages: [] }],
    });
  });

  it('reads the deprecated kind, computed pages and link targets', () => {
    expect(parsePage({ id: 'g', title: 'G', kind: 'group', pages: [] }).type).toBe('group');
    expect(parsePage({ id: 'c', title: 'C', type: 'computed', markdown: 'x' })).toMatchObject({
      type: 'document',
      markdown: 'x',
    });
    expect(parsePage({ id: 'l', title: 'L', type: 'link', href: 'https://a.test/' }).href).toBe(
      'https://a.test/',
    );
    expect(
      parsePage({ id: 'l', title: 'L', type: 'link', target: { kind: 'url', url: 'https://b/' } })
        .href,
    ).toBe('https://b/');
    // Only documents carry Markdown; "" is content, not its absence.
    expect(parsePage({ id: 'g', type: 'group', markdown: 'x' }).markdown).toBeUndefined();
    expect(parsePage({ id: 'd', type: 'document', markdown: '' }).markdown).toBe('');
  });

  it('names what is missing', () => {
    expect(() => parsePage({ title: 'No id' })).toThrow(RemoteProtocolError);
    expect(() => parsePage({ id: 'p', pages: 'x' })).toThrow(/pages/);
    expect(() => parseSpace({ id: 's' }, 'o')).toThrow(/revision/);
    expect(() => parseFile({ id: 'f' })).toThrow(/downloadURL/);
    expect(() => parseUser(null)).toThrow(RemoteProtocolError);
  });

  it('reads users, organizations, spaces and files', () => {
    expect(parseUser({ id: 'u', displayName: 'Ada', email: 'a@x', photoURL: 'p' })).toEqual({
      id: 'u',
      displayName: 'Ada',
      email: 'a@x',
    });
    expect(parseOrganization({ id: 'o', title: 'Acme', type: 'business' })).toEqual({
      id: 'o',
      title: 'Acme',
    });
    expect(
      parseSpace({ id: 's', title: 'S', emoji: '', revision: 'r1', visibility: 'private' }, 'o'),
    ).toEqual({ id: 's', organization: 'o', title: 'S', revision: 'r1' });
    expect(
      parseFile({
        id: 'f',
        name: 'a.png',
        contentType: 'image/png',
        size: 3,
        downloadURL: 'https://x/f',
        dimensions: { width: 1, height: 2 },
      }),
    ).toEqual({
      id: 'f',
      name: 'a.png',
      contentType: 'image/png',
      size: 3,
      downloadURL: 'https://x/f',
      dimensions: { width: 1, height: 2 },
    });
    expect(isDeletedSpace({ id: 's', deletedAt: '2025-01-01' })).toBe(true);
    expect(isDeletedSpace({ id: 's' })).toBe(false);
  });

  it('walks a tree depth first', () => {
    const pages = [
      parsePage({ id: 'a', pages: [{ id: 'b', pages: [{ id: 'c' }] }] }),
      parsePage({ id: 'd' }),
    ];
    expect([...walkPages(pages)].map((page) => page.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
