import { describe, expect, it } from 'vitest';
import type { FileIndexEntry } from '../cache/file-index';
import type { CachedPage } from '../local/classify-local-changes';
import type { LocalEdit } from '../cache/local-edits';
import { alignedToChangeRequest, withPushedPages } from './pushed-page-tree';

const doc = (id: string, pages: CachedPage[] = []): CachedPage => ({
  id,
  type: 'document',
  title: id,
  pages,
});
const entry = (path: string, pageId: string): FileIndexEntry => ({
  path,
  kind: 'page',
  pageId,
  fileId: null,
  contentHash: `h-${path}`,
  size: 1,
  mtimeMs: 1,
});
const edit = (path: string, pageId: string, deleted = false): LocalEdit => ({
  path,
  kind: 'page',
  pageId,
  localKey: null,
  contentHash: deleted ? null : `h-${path}`,
  size: deleted ? null : 1,
  mtimeMs: deleted ? null : 1,
});
const shape = (pages: readonly CachedPage[]): string =>
  pages
    .map((page) => (page.pages.length ? `${page.id}[${shape(page.pages)}]` : page.id))
    .join(', ');

describe('withPushedPages', () => {
  it('puts a page a push moved under the page owning its new folder', () => {
    // Synced: alpha.md, guides/README.md (guides) with guides/setup.md. Pushed, not merged yet:
    // alpha.md moved to guides/alpha.md, and guides/new.md created.
    const pages = [doc('alpha'), doc('guides', [doc('setup')])];
    const view = [
      entry('guides/alpha.md', 'alpha'),
      entry('guides/README.md', 'guides'),
      entry('guides/setup.md', 'setup'),
      entry('guides/new.md', 'new'),
    ];
    const edits = [
      edit('alpha.md', 'alpha', true),
      edit('guides/alpha.md', 'alpha'),
      edit('guides/new.md', 'new'),
    ];

    // Deleting guides then moves alpha out first instead of deleting it with its parent.
    expect(shape(withPushedPages(pages, view, edits))).toBe('guides[setup, new, alpha]');
    // The synced tree itself is left alone.
    expect(shape(pages)).toBe('alpha, guides[setup]');
  });

  it('puts a page moved into a page a push created under that new page', () => {
    // Pushed: guides/new.md created, then alpha.md moved to guides/new/alpha.md.
    const pages = [doc('alpha'), doc('guides')];
    const view = [
      entry('guides/README.md', 'guides'),
      entry('guides/new.md', 'new'),
      entry('guides/new/alpha.md', 'alpha'),
    ];
    const edits = [
      edit('guides/new.md', 'new'),
      edit('alpha.md', 'alpha', true),
      edit('guides/new/alpha.md', 'alpha'),
    ];
    // Deleting guides/new.md next moves alpha out first instead of deleting it with new.
    expect(shape(withPushedPages(pages, view, edits))).toBe('guides[new[alpha]]');
  });

  it('drops a page a push deleted, lifting what is still below it', () => {
    const pages = [doc('alpha', [doc('child')]), doc('guides', [doc('setup')])];
    const view = [
      entry('child.md', 'child'),
      entry('guides/README.md', 'guides'),
      entry('guides/setup.md', 'setup'),
    ];
    // Deleting guides next must not try to move the deleted alpha out of it.
    expect(shape(withPushedPages(pages, view, [edit('alpha/README.md', 'alpha', true)]))).toBe(
      'child, guides[setup]',
    );
  });

  it('puts a page pushed into a group’s folder in that group, not at the top level', () => {
    // Synced: README.md, and the group "start" whose pages live in start/ (a group has no file).
    const group: CachedPage = { id: 'start', type: 'group', title: 'Start', pages: [doc('quick')] };
    const pages = [doc('home'), group];
    const view = [
      entry('README.md', 'home'),
      entry('start/quick.md', 'quick'),
      entry('start/e-page.md', 'e-page'),
    ];
    expect(shape(withPushedPages(pages, view, [edit('start/e-page.md', 'e-page')]))).toBe(
      'home, start[quick, e-page]',
    );
  });

  it('returns the synced tree itself when nothing was pushed', () => {
    const pages = [doc('alpha'), doc('guides', [doc('setup')])];
    expect(withPushedPages(pages, [], [])).toBe(pages);
  });
});

describe('alignedToChangeRequest', () => {
  it('takes the change request’s tree, the cached details, and drops pages it lacks', () => {
    const cached: CachedPage[] = [
      { id: 'home', type: 'document', title: 'Home', markdown: '# Home\n', pages: [] },
      {
        id: 'guides',
        type: 'document',
        title: 'Guides',
        markdown: '# Guides\n',
        pages: [
          { id: 'setup', type: 'document', title: 'Setup', markdown: '# Setup\n', pages: [] },
        ],
      },
      // Merged on main after the change request was made: not in it.
      { id: 'remote', type: 'document', title: 'Remote', markdown: '# Remote\n', pages: [] },
    ];
    // Guides deleted there, Setup lifted to the end, a page made there by someone else.
    const aligned = alignedToChangeRequest(cached, [
      { id: 'home', type: 'document', title: 'Home', pages: [] },
      {
        id: 'other',
        type: 'document',
        title: 'Other',
        slug: 'other',
        pages: [{ id: 'setup', type: 'document', title: 'Setup', pages: [] }],
      },
    ]);
    expect(aligned).toEqual([
      { id: 'home', type: 'document', title: 'Home', markdown: '# Home\n', pages: [] },
      {
        id: 'other',
        type: 'document',
        title: 'Other',
        slug: 'other',
        pages: [
          { id: 'setup', type: 'document', title: 'Setup', markdown: '# Setup\n', pages: [] },
        ],
      },
    ]);
  });
});
