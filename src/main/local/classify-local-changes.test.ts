import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../cache/content-hash';
import type { MirrorPage } from '../../shared/gitsync/gitsync-types';
import { renderGitSyncLayout } from '../../shared/gitsync/render-gitsync-layout';
import {
  classifyLocalChanges,
  type CachedPage,
  type ClassifyLocalChangesInput,
  type ClassifyResult,
} from './classify-local-changes';
import { createIgnoreRules } from './ignore-rules';
import type { LocalContentChange } from './local-content-change';
import { scanSpaceFolder, type IndexedFile } from './scan-space-folder';

let base: string;
let root: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-classify-'));
  root = path.join(base, 'space');
  fs.mkdirSync(root);
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const doc = (
  id: string,
  title: string,
  slug: string,
  pages: MirrorPage[] = [],
  extra: Partial<MirrorPage> = {},
): MirrorPage => ({
  id,
  type: 'document',
  title,
  slug,
  markdown: `# ${title}\n\nThe ${title} page.\n\nIt has a few lines of its own about ${title}.\n`,
  pages,
  ...extra,
});

/**
 * README.md                 Welcome
 * guide/README.md           Guide
 *   guide/setup.md          Setup (description: How to install)
 *   guide/usage.md          Usage
 * faq.md                    FAQ
 * ## Reference (group)
 *   reference/api.md        API
 *   reference/cli.md        CLI
 * .gitbook/assets/hero.png
 */
function space(): MirrorPage[] {
  return [
    doc('p-readme', 'Welcome', 'welcome'),
    doc('p-guide', 'Guide', 'guide', [
      doc('p-setup', 'Setup', 'setup', [], { description: 'How to install' }),
      doc('p-usage', 'Usage', 'usage'),
    ]),
    doc('p-faq', 'FAQ', 'faq'),
    {
      id: 'g-ref',
      type: 'group',
      title: 'Reference',
      slug: 'reference',
      pages: [doc('p-api', 'API', 'api'), doc('p-cli', 'CLI', 'cli')],
    },
  ];
}

/** Writes the space as a pull does and returns what the engine would have indexed. */
function pull(pages: MirrorPage[] = space()): { index: IndexedFile[]; pages: CachedPage[] } {
  const layout = renderGitSyncLayout({
    pages,
    files: [{ id: 'f-hero', name: 'hero.png', contentType: 'image/png', size: 3 }],
  });
  const index: IndexedFile[] = [];
  for (const [relative, entry] of layout.files) {
    const data = entry.kind === 'asset' ? new Uint8Array([1, 2, 3]) : entry.content;
    write(relative, data);
    const stats = fs.statSync(path.join(root, relative));
    index.push({
      path: relative,
      kind: entry.kind === 'summary' ? 'layout' : entry.kind,
      pageId: entry.kind === 'page' ? entry.pageId : null,
      fileId: entry.kind === 'asset' ? entry.fileId : null,
      contentHash: contentHash(data),
      size: stats.size,
      mtimeMs: stats.mtimeMs,
    });
  }
  return { index, pages };
}

function write(relative: string, data: string | Uint8Array): void {
  const target = path.join(root, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, data);
}

const read = (relative: string) => fs.readFileSync(path.join(root, relative), 'utf8');
const remove = (relative: string) => fs.rmSync(path.join(root, relative), { recursive: true });
function move(from: string, to: string): void {
  fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
  fs.renameSync(path.join(root, from), path.join(root, to));
}
function editSummary(edit: (text: string) => string): void {
  write('SUMMARY.md', edit(read('SUMMARY.md')));
}

async function classify(
  synced: { index: IndexedFile[]; pages: CachedPage[] },
  extra: Partial<ClassifyLocalChangesInput> = {},
): Promise<ClassifyResult> {
  const scan = await scanSpaceFolder({
    spaceRoot: root,
    index: synced.index,
    ignore: createIgnoreRules(),
    maxFileBytes: 64 * 1024,
  });
  const result = classifyLocalChanges({ scan, ...synced, ...extra });
  // Every change is one the published API accepts.
  const published: ChangeRequestContentChange[] = result.changes.map((planned) => planned.change);
  expect(published).toHaveLength(result.changes.length);
  return result;
}

const apiChanges = (result: ClassifyResult) => result.changes.map((planned) => planned.change);

// --- applying changes as the server does, to check the resulting tree ------------------------------

interface TreeNode {
  id: string;
  title: string;
  slug: string;
  pages: TreeNode[];
}

/** Applies changes with the server's semantics (take the page out, then insert it at `at`). */
function apply(pages: readonly CachedPage[], changes: readonly LocalContentChange[]): TreeNode[] {
  const copy = (list: readonly CachedPage[]): TreeNode[] =>
    list.map((page) => ({
      id: page.id,
      title: page.title,
      slug: page.slug ?? '',
      pages: copy(page.pages),
    }));
  const tree = copy(pages);
  const locate = (
    id: string,
    list = tree,
  ): { page: TreeNode; siblings: TreeNode[] } | undefined => {
    for (const page of list) {
      if (page.id === id) return { page, siblings: list };
      const found = locate(id, page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const childrenOf = (into: string | null | undefined) => {
    if (into === null || into === undefined) return tree;
    const parent = locate(into);
    if (!parent) throw new Error(`page ${into} does not exist`);
    return parent.page.pages;
  };
  const place = (siblings: TreeNode[], page: TreeNode, at: number | undefined) => {
    if (at !== undefined && at > siblings.length) throw new Error(`at ${at} > ${siblings.length}`);
    siblings.splice(at ?? siblings.length, 0, page);
  };
  const checkSlug = (siblings: TreeNode[], page: TreeNode) => {
    if (siblings.some((other) => other !== page && other.slug === page.slug)) {
      throw new Error(`slug ${page.slug} is taken`);
    }
  };
  const contains = (page: TreeNode, id: string): boolean =>
    page.id === id || page.pages.some((child) => contains(child, id));
  for (const change of changes) {
    if (change.operation === 'insert_page') {
      const siblings = childrenOf(change.into);
      const page = {
        id: change.ref ?? 'new',
        title: change.title ?? 'Untitled',
        slug: change.slug ?? '',
        pages: [],
      };
      place(siblings, page, change.at);
      checkSlug(siblings, page);
    } else if (change.operation === 'update_page') {
      const located = locate(change.page);
      if (!located) throw new Error(`page ${change.page} does not exist`);
      let siblings = located.siblings;
      if (change.into !== undefined || change.at !== undefined) {
        const target = change.into === undefined ? located.siblings : childrenOf(change.into);
        if (change.into && contains(located.page, change.into)) throw new Error('cycle');
        located.siblings.splice(located.siblings.indexOf(located.page), 1);
        place(target, located.page, change.at);
        siblings = target;
      }
      if (change.slug !== undefined) located.page.slug = change.slug;
      if (change.title !== undefined) located.page.title = change.title;
      checkSlug(siblings, located.page);
    } else if (change.operation === 'delete_page') {
      const located = locate(change.page);
      if (!located) throw new Error(`page ${change.page} does not exist`);
      located.siblings.splice(located.siblings.indexOf(located.page), 1);
    }
  }
  return tree;
}

/** `a, b[c, d]`: ids in tree order, children in brackets. */
function shape(pages: readonly { id: string; pages: readonly { id: string }[] }[]): string {
  return pages
    .map((page) =>
      page.pages.length === 0
        ? page.id
        : `${page.id}[${shape(page.pages as readonly { id: string; pages: readonly { id: string }[] }[])}]`,
    )
    .join(', ');
}

const INITIAL = 'p-readme, p-guide[p-setup, p-usage], p-faq, g-ref[p-api, p-cli]';

describe('classifyLocalChanges', () => {
  it('pushes nothing for an untouched folder', async () => {
    const synced = pull();
    const result = await classify(synced);
    expect(result).toMatchObject({ guard: null, changes: [], problems: [], summary: 'unchanged' });
  });

  it('pushes an edited page with its Markdown, title and frontmatter fields', async () => {
    const synced = pull();
    const setup = [
      '---',
      'icon: rocket',
      'hidden: true',
      '---',
      '',
      '# Installation',
      '',
      'Run the installer.',
      '',
    ].join('\n');
    write('guide/setup.md', setup);
    write('faq.md', '---\ntitle: Questions\ndescription: Asked often\n---\n\n# FAQ\n\nAsk away.\n');

    const result = await classify(synced);
    expect(result.problems).toEqual([]);
    expect(result.changes).toEqual([
      {
        reason: 'edit',
        pageId: 'p-setup',
        path: 'guide/setup.md',
        change: {
          operation: 'update_page',
          page: 'p-setup',
          document: { markdown: setup },
          title: 'Installation',
          // The description key was removed: the field is cleared.
          description: '',
          icon: 'rocket',
          hidden: true,
        },
      },
      {
        reason: 'edit',
        pageId: 'p-faq',
        path: 'faq.md',
        change: {
          operation: 'update_page',
          page: 'p-faq',
          document: { markdown: read('faq.md') },
          title: 'Questions',
          description: 'Asked often',
        },
      },
    ]);
  });

  it('sends the Markdown through markdownForPush', async () => {
    const synced = pull();
    write('faq.md', '# FAQ\n\n![](.gitbook/assets/hero.png)\n');
    const result = await classify(synced, {
      markdownForPush: (markdown, file) =>
        file === 'faq.md'
          ? markdown.replace('.gitbook/assets/hero.png', '/files/f-hero')
          : markdown,
    });
    expect(apiChanges(result)).toEqual([
      {
        operation: 'update_page',
        page: 'p-faq',
        document: { markdown: '# FAQ\n\n![](/files/f-hero)\n' },
      },
    ]);
  });

  it('inserts a new file in a folder into the folder page, last', async () => {
    const synced = pull();
    write(
      'guide/troubleshooting.md',
      '---\ndescription: When it fails\n---\n\n# Troubleshooting\n',
    );
    write('reference/errors.md', '# Errors\n');
    write('changelog.md', 'No heading here.\n');

    const result = await classify(synced);
    expect(result.problems).toEqual([]);
    expect(apiChanges(result)).toEqual([
      {
        operation: 'insert_page',
        at: 4,
        ref: 'quire-new-page-1',
        title: 'changelog',
        slug: 'changelog',
        document: { markdown: 'No heading here.\n' },
      },
      {
        operation: 'insert_page',
        into: 'p-guide',
        at: 2,
        ref: 'quire-new-page-2',
        title: 'Troubleshooting',
        slug: 'troubleshooting',
        description: 'When it fails',
        document: { markdown: read('guide/troubleshooting.md') },
      },
      {
        operation: 'insert_page',
        into: 'g-ref',
        at: 2,
        ref: 'quire-new-page-3',
        title: 'Errors',
        slug: 'errors',
        document: { markdown: '# Errors\n' },
      },
    ]);
    expect(result.changes[1]).toMatchObject({
      reason: 'new-page',
      path: 'guide/troubleshooting.md',
    });
    expect(shape(apply(synced.pages, apiChanges(result)))).toBe(
      'p-readme, p-guide[p-setup, p-usage, quire-new-page-2], p-faq, g-ref[p-api, p-cli, quire-new-page-3], quire-new-page-1',
    );
  });

  it('places a new file where SUMMARY.md lists it', async () => {
    const synced = pull();
    write('guide/install.md', '# Install\n');
    editSummary((text) =>
      text.replace('  * [Setup]', '  * [Install](guide/install.md)\n  * [Setup]'),
    );
    const result = await classify(synced);
    expect(result.summary).toBe('applied');
    expect(apiChanges(result)).toEqual([
      expect.objectContaining({
        operation: 'insert_page',
        into: 'p-guide',
        at: 0,
        title: 'Install',
      }),
    ]);
  });

  it('uploads a new asset', async () => {
    const synced = pull();
    write('.gitbook/assets/diagram (1).png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    write('.gitbook/assets/notes.pdf', new Uint8Array([0x25, 0x50, 0x44, 0x46]));
    const result = await classify(synced);
    expect(result.changes).toEqual([
      {
        reason: 'new-files',
        paths: ['.gitbook/assets/diagram (1).png', '.gitbook/assets/notes.pdf'],
        change: {
          operation: 'insert_files',
          files: [
            { name: 'diagram (1).png', contentType: 'image/png', base64: 'iVBORw==' },
            { name: 'notes.pdf', contentType: 'application/pdf', base64: 'JVBERg==' },
          ],
        },
      },
    ]);
  });

  it('reports assets it cannot push', async () => {
    const synced = pull();
    write('.gitbook/assets/hero.png', new Uint8Array([9, 9, 9, 9]));
    write('.gitbook/assets/big.png', new Uint8Array(2048));
    write('.gitbook/assets/sub/nested.png', new Uint8Array([1]));
    const result = await classify(synced, { maxUploadBytes: 1024 });
    expect(result.changes).toEqual([]);
    expect(result.problems.map((p) => [p.path, p.reason])).toEqual([
      ['.gitbook/assets/big.png', 'too-large'],
      ['.gitbook/assets/sub/nested.png', 'unsupported'],
      ['.gitbook/assets/hero.png', 'unsupported'],
    ]);
  });

  it('reports a new asset whose name the pull would not keep, and uploads the others', async () => {
    const synced = pull();
    // Not every system accepts ':' (the mirror writes "a-b.png"); "Hero.png" is hero.png's name
    // on a case-insensitive disk (the mirror writes "Hero (1).png").
    write('.gitbook/assets/a:b.png', new Uint8Array([1]));
    write('.gitbook/assets/Hero.png', new Uint8Array([2]));
    write('.gitbook/assets/fine.png', new Uint8Array([3]));
    const result = await classify(synced);
    expect(result.problems.map((p) => [p.path, p.reason, p.message])).toEqual([
      [
        '.gitbook/assets/Hero.png',
        'unsupported',
        expect.stringContaining('would be named "Hero (1).png"'),
      ],
      ['.gitbook/assets/a:b.png', 'unsupported', expect.stringContaining('"a-b.png"')],
    ]);
    expect(apiChanges(result)).toEqual([
      { operation: 'insert_files', files: [expect.objectContaining({ name: 'fine.png' })] },
    ]);
  });

  it('deletes the page of a deleted file', async () => {
    const synced = pull();
    remove('faq.md');
    const result = await classify(synced);
    expect(result.changes).toEqual([
      {
        reason: 'delete',
        pageId: 'p-faq',
        path: 'faq.md',
        change: { operation: 'delete_page', page: 'p-faq' },
      },
    ]);
  });

  it('keeps the sub-pages of a deleted page file that are still there', async () => {
    const synced = pull();
    remove('guide/README.md');
    const result = await classify(synced);
    const tree = apply(synced.pages, apiChanges(result));
    expect(shape(tree)).toBe('p-readme, p-faq, g-ref[p-api, p-cli], p-setup, p-usage');
    expect(apiChanges(result).at(-1)).toEqual({ operation: 'delete_page', page: 'p-guide' });
  });

  it('renames a page: update_page with its new slug, never delete and insert', async () => {
    const synced = pull();
    move('guide/usage.md', 'guide/using-quire.md');
    const result = await classify(synced);
    expect(result.changes).toEqual([
      {
        reason: 'move',
        pageId: 'p-usage',
        path: 'guide/using-quire.md',
        change: { operation: 'update_page', page: 'p-usage', slug: 'using-quire' },
      },
    ]);
    expect(result.moves).toEqual([
      { pageId: 'p-usage', from: 'guide/usage.md', to: 'guide/using-quire.md' },
    ]);
  });

  it('renames a page onto the name of a page deleted in the same pass', async () => {
    const synced = pull();
    move('guide/usage.md', 'guide/setup.md');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      { operation: 'delete_page', page: 'p-setup' },
      { operation: 'update_page', page: 'p-usage', slug: 'setup' },
    ]);
    expect(result.moves).toEqual([
      { pageId: 'p-usage', from: 'guide/usage.md', to: 'guide/setup.md' },
    ]);
    expect(shape(apply(synced.pages, apiChanges(result)))).toBe(
      'p-readme, p-guide[p-usage], p-faq, g-ref[p-api, p-cli]',
    );
  });

  it('moves a page into a folder, keeping its id', async () => {
    const synced = pull();
    move('faq.md', 'guide/faq.md');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-faq', into: 'p-guide', at: 2 },
    ]);
    expect(shape(apply(synced.pages, apiChanges(result)))).toBe(
      'p-readme, p-guide[p-setup, p-usage, p-faq], g-ref[p-api, p-cli]',
    );
  });

  it('recognises a page moved and edited by its title and lines', async () => {
    const synced = pull();
    const text = read('faq.md').replace('The FAQ page.', 'The FAQ page, edited.');
    remove('faq.md');
    write('reference/questions.md', text);
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      {
        operation: 'update_page',
        page: 'p-faq',
        document: { markdown: text },
        slug: 'questions',
        into: 'g-ref',
        at: 2,
      },
    ]);
  });

  it('treats a new file with other content as a new page and the old one as deleted', async () => {
    const synced = pull();
    remove('faq.md');
    write('questions.md', '# Questions\n\nSomething else entirely.\n');
    const result = await classify(synced);
    expect(apiChanges(result).map((change) => change.operation)).toEqual([
      'delete_page',
      'insert_page',
    ]);
  });

  it('lets a page gain children: x.md → x/README.md plus x/child.md', async () => {
    const synced = pull();
    move('faq.md', 'faq/README.md');
    write('faq/billing.md', '# Billing\n');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      {
        operation: 'insert_page',
        into: 'p-faq',
        at: 0,
        ref: 'quire-new-page-1',
        title: 'Billing',
        slug: 'billing',
        document: { markdown: '# Billing\n' },
      },
    ]);
    expect(result.moves).toEqual([{ pageId: 'p-faq', from: 'faq.md', to: 'faq/README.md' }]);
  });

  it('puts a child into the page whose name its folder has (x.md next to x/)', async () => {
    const synced = pull();
    write('faq/billing.md', '# Billing\n');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      expect.objectContaining({ operation: 'insert_page', into: 'p-faq', title: 'Billing' }),
    ]);
  });

  it('inserts a page whose parent page is new too into it, parent first (issue 11, defect 6)', async () => {
    const synced = pull();
    write('tutorials/README.md', '# Tutorials\n');
    write('tutorials/first.md', '# First steps\n');
    write('tutorials/deeper/README.md', '# Deeper\n');
    write('tutorials/deeper/last.md', '# Last\n');
    const result = await classify(synced);
    expect(result.problems).toEqual([]);
    expect(apiChanges(result)).toEqual([
      expect.objectContaining({
        operation: 'insert_page',
        title: 'Tutorials',
        ref: 'quire-new-page-1',
      }),
      expect.objectContaining({
        into: 'quire-new-page-1',
        title: 'Deeper',
        ref: 'quire-new-page-2',
        at: 0,
      }),
      expect.objectContaining({
        into: 'quire-new-page-1',
        title: 'First steps',
        ref: 'quire-new-page-3',
        at: 1,
      }),
      expect.objectContaining({ into: 'quire-new-page-2', title: 'Last', at: 0 }),
    ]);
    expect(result.changes.map((planned) => planned.intoRef)).toEqual([
      undefined,
      'quire-new-page-1',
      'quire-new-page-1',
      'quire-new-page-2',
    ]);
  });

  it('reports new files whose names differ only in Unicode form, naming both, and pushes the rest (issue 11, defect 2)', async () => {
    const synced = pull();
    const nfc = 'Caf\u00e9.md';
    const nfd = 'Cafe\u0301.md';
    write(nfc, '# Café one\n');
    write(nfd, '# Café two\n');
    write('guide/other.md', '# Other\n');
    write('other.md', '# Other page\n');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      expect.objectContaining({ operation: 'insert_page', title: 'Other page' }),
      expect.objectContaining({ operation: 'insert_page', title: 'Other', into: 'p-guide' }),
    ]);
    expect(result.problems).toHaveLength(2);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: nfc, message: expect.stringContaining(nfd) }),
        expect.objectContaining({ path: nfd, message: expect.stringContaining(nfc) }),
      ]),
    );
  });

  it('holds a new page back while its new parent page is not pushed', async () => {
    const synced = pull();
    write('loose/tutorials/README.md', '# Tutorials\n');
    write('loose/tutorials/first.md', '# First steps\n');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'loose/tutorials/README.md', reason: 'unsupported' }),
      expect.objectContaining({ path: 'loose/tutorials/first.md', reason: 'deferred' }),
    ]);
  });

  it('reorders and regroups pages from an edited SUMMARY.md', async () => {
    const synced = pull();
    write(
      'SUMMARY.md',
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Guide](guide/README.md)',
        '  * [Usage](guide/usage.md)',
        '  * [Setup](guide/setup.md)',
        '',
        '## Reference',
        '',
        '* [CLI](reference/cli.md)',
        '* [Frequently asked](faq.md)',
        '* [API](reference/api.md)',
        '',
      ].join('\n'),
    );
    const result = await classify(synced);
    expect(result.summary).toBe('applied');
    expect(result.problems).toEqual([]);
    const tree = apply(synced.pages, apiChanges(result));
    expect(shape(tree)).toBe('p-readme, p-guide[p-usage, p-setup], g-ref[p-cli, p-faq, p-api]');
    expect(tree.find((page) => page.id === 'g-ref')?.pages[1]?.title).toBe('Frequently asked');
    // The fewest moves: one per reordered list, plus the regrouped page.
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-usage', at: 0 },
      { operation: 'update_page', page: 'p-cli', at: 0 },
      { operation: 'update_page', page: 'p-faq', into: 'g-ref', at: 1, title: 'Frequently asked' },
    ]);
  });

  it('keeps pages SUMMARY.md does not list where they were', async () => {
    const synced = pull();
    editSummary((text) =>
      text
        .replace('* [FAQ](faq.md)\n', '')
        .replace('## Reference', '## Reference\n\n* [FAQ](faq.md)'),
    );
    editSummary((text) => text.replace('  * [Usage](guide/usage.md)\n', ''));
    const result = await classify(synced);
    expect(shape(apply(synced.pages, apiChanges(result)))).toBe(
      'p-readme, p-guide[p-setup, p-usage], g-ref[p-faq, p-api, p-cli]',
    );
  });

  it('reports an unparseable SUMMARY.md and pushes the rest', async () => {
    const synced = pull();
    editSummary((text) =>
      `${text}\nThis line is not a list item.\n* [FAQ](faq.md)\n`.replace(
        '* [FAQ](faq.md)\n\n',
        '',
      ),
    );
    write('faq.md', '# FAQ\n\nEdited.\n');
    const result = await classify(synced);
    expect(result.summary).toBe('invalid');
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'SUMMARY.md', reason: 'invalid-summary' }),
    ]);
    expect(result.problems[0]?.message).toMatch(/line \d+: unexpected line/);
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-faq', document: { markdown: '# FAQ\n\nEdited.\n' } },
    ]);
  });

  it('does not push a page whose frontmatter is invalid, and leaves the file alone', async () => {
    const synced = pull();
    const broken = '---\ndescription: a: b: c\n---\n\n# Setup\n';
    write('guide/setup.md', broken);
    write('guide/usage.md', '---\nhidden: maybe\n---\n\n# Usage\n');
    write('faq.md', '# FAQ\n\nEdited.\n');
    const result = await classify(synced);
    expect(result.problems.map((p) => [p.path, p.reason, p.pageId])).toEqual([
      ['guide/setup.md', 'invalid-frontmatter', 'p-setup'],
      ['guide/usage.md', 'invalid-frontmatter', 'p-usage'],
    ]);
    expect(result.problems[1]?.message).toMatch(/"hidden" must be true or false/);
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-faq', document: { markdown: '# FAQ\n\nEdited.\n' } },
    ]);
    expect(read('guide/setup.md')).toBe(broken);
  });

  it('holds deletions while a new Markdown file cannot be read', async () => {
    const synced = pull();
    remove('faq.md');
    write('questions.md', Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
    const result = await classify(synced);
    expect(result.changes).toEqual([]);
    expect(result.problems.map((p) => [p.path, p.reason])).toEqual([
      ['questions.md', 'not-utf8'],
      ['faq.md', 'deferred'],
    ]);
  });

  it('guards against deleting more than half of the pages', async () => {
    const synced = pull();
    for (const file of ['faq.md', 'guide', 'reference/api.md']) remove(file);
    const result = await classify(synced);
    expect(result).toMatchObject({ guard: 'mass-delete', count: 5, total: 7, changes: [] });
    expect(result.message).toMatch(/5 of the 7 pages/);

    const confirmed = await classify(synced, { allowMassDelete: true });
    expect(confirmed.guard).toBeNull();
    expect(shape(apply(synced.pages, apiChanges(confirmed)))).toBe('p-readme, g-ref[p-cli]');
    // The guide's sub-pages go with it: one delete for the folder page.
    expect(apiChanges(confirmed).map((change) => change.operation)).toEqual([
      'delete_page',
      'delete_page',
      'delete_page',
    ]);
  });

  it('guards against a vanished space folder', async () => {
    const synced = pull();
    fs.rmSync(root, { recursive: true });
    const result = await classify(synced);
    expect(result).toMatchObject({ guard: 'folder-missing', changes: [] });
    expect(result.message).toMatch(/missing/);
  });

  it('moves a whole folder, keeping every page', async () => {
    const synced = pull();
    move('guide', 'reference/guide');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-guide', into: 'g-ref', at: 2 },
    ]);
    expect(result.moves.map((m) => m.pageId).sort()).toEqual(['p-guide', 'p-setup', 'p-usage']);
  });

  it('refuses to move a page inside its own sub-pages', async () => {
    const synced = pull();
    // guide/setup/ belongs to guide/setup.md, a child of the guide page moved into it.
    move('guide/README.md', 'guide/setup/intro.md');
    const result = await classify(synced);
    expect(result.problems).toEqual([
      expect.objectContaining({ pageId: 'p-guide', reason: 'unsupported' }),
    ]);
    expect(result.moves).toEqual([]);
    expect(apiChanges(result)).toEqual([]);
  });

  it('renames a page in SUMMARY.md', async () => {
    const synced = pull();
    editSummary((text) => text.replace('[FAQ](faq.md)', '[Questions \\[and answers\\]](faq.md)'));
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([
      { operation: 'update_page', page: 'p-faq', title: 'Questions [and answers]' },
    ]);
  });

  it('reports a new file in a folder no page owns, and pushes nothing for it', async () => {
    const synced = pull();
    // Placed under the root, its page would be pulled as topics.md: two files for one page.
    write('topics/note.md', '# Note\n');
    write('guide/deeper/more.md', '# More\n');
    const result = await classify(synced);
    expect(apiChanges(result)).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'guide/deeper/more.md', reason: 'unsupported' }),
      expect.objectContaining({ path: 'topics/note.md', reason: 'unsupported' }),
    ]);
    expect(result.problems[1]!.message).toMatch(/no page owns the folder topics\//);
  });

  it('leaves a page moved into a folder no page owns where it is, reported', async () => {
    const synced = pull();
    move('faq.md', 'topics/faq.md');
    const result = await classify(synced);
    expect(result.moves).toEqual([]);
    expect(apiChanges(result)).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'topics/faq.md', reason: 'unsupported', pageId: 'p-faq' }),
    ]);
  });

  it('does not move a page into x/ when x.md is deleted in the same pass', async () => {
    const synced = pull();
    remove('faq.md');
    move('guide/usage.md', 'faq/usage.md');
    const result = await classify(synced);
    expect(result.moves).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'faq/usage.md', reason: 'unsupported', pageId: 'p-usage' }),
    ]);
    expect(apiChanges(result)).toEqual([{ operation: 'delete_page', page: 'p-faq' }]);
  });

  it('starts from a tree with the expected shape', () => {
    expect(shape(space())).toBe(INITIAL);
  });
});
