import { describe, expect, it } from 'vitest';
import {
  applyContentChanges,
  ContentChangeError,
  type ApplyDeps,
  type ContentChange,
} from './apply-content-changes';
import { FrontmatterError } from './markdown-document';
import { sha256 } from './revision-store';
import type { RevisionTree, StoredPage } from './revision-tree';

function makeDeps(base?: RevisionTree): ApplyDeps & { bodies: Map<string, string> } {
  const bodies = new Map<string, string>();
  return {
    bodies,
    now: '2026-02-01T00:00:00.000Z',
    putBody: (markdown) => {
      const hash = sha256(markdown);
      bodies.set(hash, markdown);
      return hash;
    },
    getBody: (hash) => bodies.get(hash) ?? '',
    putBlob: (bytes) => sha256(bytes),
    readMarkdown: (markdown) => {
      const heading = /^# (.+)\n/.exec(markdown);
      return { ...(heading?.[1] ? { title: heading[1] } : {}), fields: {}, body: markdown };
    },
    revertSource: () => base,
  };
}

function page(id: string, slug: string, deps: ApplyDeps, pages: StoredPage[] = []): StoredPage {
  return {
    id,
    type: 'document',
    title: slug.toUpperCase(),
    slug,
    body: deps.putBody(`# ${slug.toUpperCase()}\n\nText of ${slug}.\n`),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    pages,
  };
}

function baseTree(deps: ApplyDeps): RevisionTree {
  return {
    pages: [page('a', 'a', deps), page('b', 'b', deps, [page('b1', 'b1', deps)])],
    files: [],
  };
}

const apply = (tree: RevisionTree, changes: ContentChange[], deps: ApplyDeps) =>
  applyContentChanges(tree, changes, deps);

describe('applyContentChanges', () => {
  it('inserts a page titled by its leading heading, appended by default and at an index', () => {
    const deps = makeDeps();
    const tree = baseTree(deps);
    const result = apply(
      tree,
      [
        { operation: 'insert_page', document: { markdown: '# New page\n\nHello.\n' } },
        {
          operation: 'insert_page',
          title: 'First',
          into: 'b',
          at: 0,
          document: { markdown: 'Body only.\n' },
        },
      ],
      deps,
    );
    expect(result.tree.pages.map((p) => p.slug)).toEqual(['a', 'b', 'new-page']);
    const inserted = result.tree.pages[2]!;
    expect(inserted.title).toBe('New page');
    expect(deps.getBody(inserted.body!)).toBe('# New page\n\nHello.\n');
    expect(result.tree.pages[1]!.pages.map((p) => p.title)).toEqual(['First', 'B1']);
    expect(result.affected.map((a) => a.object)).toEqual(['created_page', 'created_page']);
    // The source tree is untouched: a failed or discarded batch changes nothing.
    expect(tree.pages).toHaveLength(2);
  });

  it('updates the body, title, slug and moves a page with into/at', () => {
    const deps = makeDeps();
    const result = apply(
      baseTree(deps),
      [
        { operation: 'update_page', page: 'a', document: { markdown: '# Alpha\n\nNew text.\n' } },
        { operation: 'update_page', page: 'b1', into: null, at: 0, slug: 'moved' },
      ],
      deps,
    );
    expect(result.tree.pages.map((p) => p.id)).toEqual(['b1', 'a', 'b']);
    expect(result.tree.pages[0]!.slug).toBe('moved');
    expect(result.tree.pages[1]!.title).toBe('Alpha');
    expect(result.tree.pages[2]!.pages).toEqual([]);
  });

  it('renames the leading heading on a title-only update', () => {
    const deps = makeDeps();
    const result = apply(
      baseTree(deps),
      [{ operation: 'update_page', page: 'a', title: 'Renamed' }],
      deps,
    );
    expect(deps.getBody(result.tree.pages[0]!.body!)).toBe('# Renamed\n\nText of a.\n');
  });

  it('cancels an insert deleted in the same batch and reports deletes', () => {
    const deps = makeDeps();
    const inserted = apply(
      baseTree(deps),
      [{ operation: 'insert_page', title: 'Tmp', document: { markdown: 'x' } }],
      deps,
    );
    const tmpId = inserted.tree.pages[2]!.id;
    const result = apply(
      inserted.tree,
      [
        { operation: 'delete_page', page: 'b' },
        { operation: 'delete_page', page: tmpId },
      ],
      deps,
    );
    expect(result.tree.pages.map((p) => p.id)).toEqual(['a']);
    expect(result.affected).toEqual([
      { object: 'deleted_page', pageId: 'b' },
      { object: 'deleted_page', pageId: tmpId },
    ]);
  });

  it('resolves batch-local refs of pages and files in Markdown links', () => {
    const deps = makeDeps();
    const result = apply(
      baseTree(deps),
      [
        {
          operation: 'insert_page',
          title: 'Links',
          document: { markdown: 'See [x](./other.md) and ![i](./logo)\n' },
        },
        { operation: 'insert_page', ref: 'other', title: 'Other', document: { markdown: 'o' } },
        {
          operation: 'insert_files',
          files: [
            {
              ref: 'logo',
              name: 'logo.png',
              contentType: 'image/png',
              bytes: new Uint8Array([1, 2, 3]),
            },
          ],
        },
      ],
      deps,
    );
    const other = result.tree.pages.find((p) => p.title === 'Other')!;
    const file = result.insertedFiles[0]!;
    const links = result.tree.pages.find((p) => p.title === 'Links')!;
    expect(deps.getBody(links.body!)).toBe(
      `See [x](/pages/${other.id}) and ![i](/files/${file.id})\n`,
    );
    expect(file.size).toBe(3);
  });

  it('rejects slug collisions, unknown pages, cycles and out-of-range positions, naming the change', () => {
    const deps = makeDeps();
    const tree = baseTree(deps);
    const cases: [ContentChange, RegExp][] = [
      [{ operation: 'insert_page', title: 'A', document: { markdown: 'x' } }, /changes\.0\.slug/],
      [
        { operation: 'update_page', page: 'nope', title: 'x' },
        /changes\.0\.page: page nope does not exist/,
      ],
      [{ operation: 'update_page', page: 'b', into: 'b1' }, /changes\.0\.into/],
      [
        { operation: 'insert_page', at: 9, title: 'Z', document: { markdown: 'z' } },
        /changes\.0\.at/,
      ],
      [{ operation: 'delete_page', page: 'zzz' }, /changes\.0\.page/],
    ];
    for (const [change, message] of cases) {
      expect(() => apply(tree, [change], deps)).toThrow(ContentChangeError);
      expect(() => apply(tree, [change], deps)).toThrow(message);
    }
  });

  it('names the field but never echoes an internal error from reading the Markdown', () => {
    const deps = makeDeps();
    const tree = baseTree(deps);
    const insert: ContentChange = { operation: 'insert_page', document: { markdown: '> x' } };
    deps.readMarkdown = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    expect(() => apply(tree, [insert], deps)).toThrow(
      /^changes\.0\.document\.markdown: could not be parsed$/,
    );
    deps.readMarkdown = () => {
      throw new FrontmatterError('frontmatter field "hidden" must be true or false');
    };
    expect(() => apply(tree, [insert], deps)).toThrow(
      'changes.0.document.markdown: frontmatter field "hidden" must be true or false',
    );
  });

  it('reverts a page to the base revision', () => {
    const deps = makeDeps();
    const base = baseTree(deps);
    deps.revertSource = () => base;
    const edited = apply(
      base,
      [{ operation: 'update_page', page: 'a', document: { markdown: '# A2\n' } }],
      deps,
    );
    const reverted = apply(edited.tree, [{ operation: 'revert_page', page: 'a' }], deps);
    expect(reverted.tree.pages[0]!.title).toBe('A');
    expect(reverted.tree.pages[0]!.body).toBe(base.pages[0]!.body);
  });
});
