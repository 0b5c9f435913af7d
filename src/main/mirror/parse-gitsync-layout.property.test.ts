/**
 * parseGitSyncLayout is the inverse of renderGitSyncLayout: any space rendered to files and read
 * back gives the same tree, titles, fields and Markdown (with asset references as `/files/<id>`,
 * the parser's fileIdForAsset mode), and rendering that again gives the same files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  MirrorFile,
  MirrorLayout,
  MirrorPage,
  MirrorSpace,
} from '../../shared/gitsync/gitsync-types';
import { parseGitSyncLayout, type ParsedPage } from './parse-gitsync-layout';
import { renderGitSyncLayout } from '../../shared/gitsync/render-gitsync-layout';

const TITLE_CHARS = [...'abcdefghijXYZ0123 []\\<>`*_#&"\'():.-—é'];
const title = fc
  .string({ unit: fc.constantFrom(...TITLE_CHARS), minLength: 1, maxLength: 24 })
  .map((text) => text.trim())
  .filter((text) => text !== '');
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const sentence = fc
  .array(fc.oneof(word, fc.constantFrom('GitBook’s', 'docs:', '#1', '—', 'a, b', "it's")), {
    minLength: 1,
    maxLength: 25,
  })
  .map((words) => words.join(' '));
const layout: fc.Arbitrary<MirrorLayout> = fc.record(
  {
    width: fc.constantFrom('default' as const, 'wide' as const),
    cover: fc.boolean(),
    coverSize: fc.constantFrom('hero', 'full'),
    title: fc.boolean(),
    outline: fc.boolean(),
    anchors: fc.boolean(),
  },
  { requiredKeys: [] },
);

interface Draft {
  kind: 'document' | 'group' | 'link' | 'computed';
  title: string;
  fields: Partial<MirrorPage>;
  body: string[];
  linkTarget: number;
  children: Draft[];
}

const draft = (depth: number): fc.Arbitrary<Draft> =>
  fc.record({
    kind: fc.constantFrom('document', 'document', 'document', 'link', 'computed') as fc.Arbitrary<
      Draft['kind']
    >,
    title,
    fields: fc.record(
      {
        linkTitle: title,
        description: sentence,
        icon: word,
        emoji: fc.constantFrom('1f600', '2728'),
        hidden: fc.constant(true),
        noIndex: fc.constant(true),
        noRobotsIndex: fc.constant(true),
        layout,
      },
      { requiredKeys: [] },
    ),
    body: fc.array(
      fc.oneof(
        sentence,
        fc.nat(5).map((n) => `![shot](file:${n})`),
      ),
      { maxLength: 4 },
    ),
    linkTarget: fc.nat(),
    children: depth > 0 ? fc.array(draft(depth - 1), { maxLength: 3 }) : fc.constant([]),
  });

const space = fc
  .record({
    top: fc.array(
      fc.oneof(
        draft(2),
        draft(2).map((d) => ({ ...d, kind: 'group' as const })),
      ),
      {
        maxLength: 6,
      },
    ),
    first: draft(1),
    assetNames: fc.array(fc.constantFrom('hero.png', 'shot (1).png', 'a b.svg', 'Actions Menu'), {
      maxLength: 6,
    }),
    covers: fc.array(fc.option(fc.nat(), { nil: undefined }), { maxLength: 20 }),
  })
  .map(({ top, first, assetNames, covers }) => build(first, top, assetNames, covers));

/** Turns drafts into a valid space: unique ids and slugs, groups only at the top level. */
function build(
  first: Draft,
  top: Draft[],
  assetNames: string[],
  covers: (number | undefined)[],
): MirrorSpace {
  const files: MirrorFile[] = assetNames.map((name, i) => ({
    id: `file${i}`,
    name,
    contentType: 'application/octet-stream',
    size: 1,
  }));
  let next = 0;
  const documents: MirrorPage[] = [];
  /**
   * A link to a page without an anchor is written like the page's own entry (as Git Sync does),
   * so the parser takes the first fitting entry as the page: links here only target pages listed
   * before them. The sync engine tells such twins apart by the page ids it has cached.
   */
  const links: { page: MirrorPage; target: number; before: number }[] = [];
  const convert = (d: Draft, allowGroup: boolean, forceDocument = false): MirrorPage => {
    next += 1;
    const id = `p${next}`;
    const slug = `s${next}`;
    const kind = forceDocument
      ? 'document'
      : d.kind === 'group' && !allowGroup
        ? 'document'
        : d.kind;
    if (kind === 'group') {
      return {
        id,
        type: 'group',
        title: d.title,
        slug,
        pages: d.children.map((c) => convert(c, false)),
      };
    }
    if (kind === 'computed') {
      return {
        id,
        type: 'computed',
        title: '',
        slug: '',
        computed: { props: { models: d.linkTarget % 2 === 0 }, type: 'builtin:openapi' },
        pages: [],
      };
    }
    if (kind === 'link') {
      const page: MirrorPage = { id, type: 'link', title: d.title, slug: '', pages: [] };
      if (d.fields.linkTitle) page.linkTitle = d.fields.linkTitle;
      links.push({ page, target: d.linkTarget, before: documents.length });
      return page;
    }
    const body = d.body.map((line) =>
      line.replace(/file:(\d+)/, (_, n: string) =>
        files.length === 0
          ? 'https://x.test/a.png'
          : `/files/${files[Number(n) % files.length]!.id}`,
      ),
    );
    const page: MirrorPage = {
      id,
      type: 'document',
      title: d.title,
      slug,
      ...d.fields,
      markdown: `# ${d.title.replace(/[\\[<`]/g, '\\$&')}\n${body.map((line) => `\n${line}\n`).join('')}`,
      pages: [],
    };
    documents.push(page);
    page.pages = d.children.map((c) => convert(c, false));
    const cover = covers[next % Math.max(1, covers.length)];
    if (cover !== undefined) {
      page.cover =
        files.length > 0 && cover % 3 !== 0
          ? {
              ref: { kind: 'file', file: files[cover % files.length]!.id },
              yPos: cover,
              height: 240,
            }
          : { ref: { kind: 'url', url: `https://x.test/${cover}.png` }, yPos: 0 };
    }
    return page;
  };
  const pages = [convert(first, false, true), ...top.map((d) => convert(d, true))];
  for (const { page, target, before } of links) {
    const choice = target % (before + 2 + files.length);
    if (choice < before) {
      page.href = `/pages/${documents[choice]!.id}${target % 2 === 0 ? '' : '#part-2'}`;
    } else if (choice - before < files.length) {
      page.href = `/files/${files[choice - before]!.id}`;
    } else {
      page.href = `https://example.com/${target}/a_(b)`;
    }
  }
  return { pages, files };
}

/** What must survive the round trip, in a shape both sides can be brought to. */
function expected(pages: readonly MirrorPage[], readmeId: string | undefined): unknown[] {
  return pages.map((page) => {
    const hasCover = page.cover?.ref !== undefined;
    let layout: MirrorLayout | undefined = page.layout && { ...page.layout };
    if (layout && !hasCover) {
      delete layout.cover;
      delete layout.coverSize;
      delete layout.coverMask;
    }
    if (layout && Object.keys(layout).length === 0) layout = undefined;
    return clean({
      type: page.type,
      title: page.type === 'computed' ? '' : page.title,
      slug:
        page.type === 'document' && (page.id !== readmeId || hasDocumentChild(page))
          ? page.slug
          : undefined,
      linkTitle: page.type === 'computed' ? undefined : page.linkTitle,
      href: page.href,
      computed: page.computed,
      description: page.description,
      icon: page.icon,
      emoji: page.emoji,
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
      layout,
      cover: page.cover,
      markdown: page.markdown,
      pages: expected(page.pages, readmeId),
    });
  });
}

function actual(
  pages: readonly ParsedPage[],
  idOfPath: ReadonlyMap<string, string>,
  readmeId: string | undefined,
): unknown[] {
  return pages.map((page) => {
    const id = page.path === undefined ? undefined : idOfPath.get(page.path);
    const href = page.target
      ? `/pages/${idOfPath.get(page.target.path)}${page.target.anchor === undefined ? '' : `#${page.target.anchor}`}`
      : page.href;
    const cover = page.cover && {
      ref:
        page.cover.fileId !== undefined
          ? { kind: 'file' as const, file: page.cover.fileId }
          : { kind: 'url' as const, url: page.cover.src },
      ...(page.cover.yPos !== undefined ? { yPos: page.cover.yPos } : {}),
      ...(page.cover.height !== undefined ? { height: page.cover.height } : {}),
    };
    return clean({
      type: page.type,
      title: page.title,
      slug:
        page.type === 'document' && (id !== readmeId || hasDocumentChild(page))
          ? page.slug
          : undefined,
      linkTitle: page.linkTitle,
      href: page.type === 'link' ? href : undefined,
      computed: page.computed,
      description: page.description,
      icon: page.icon,
      emoji: page.emoji,
      hidden: page.hidden,
      noIndex: page.noIndex,
      noRobotsIndex: page.noRobotsIndex,
      layout: page.layout,
      cover,
      markdown: page.markdown,
      pages: actual(page.pages, idOfPath, readmeId),
    });
  });
}

/** The parsed tree as a space again: document ids from their paths, other ids made up. */
function rebuild(
  pages: readonly ParsedPage[],
  idOfPath: ReadonlyMap<string, string>,
  readmeId: string | undefined,
  files: MirrorFile[],
): MirrorSpace {
  let next = 0;
  const convert = (page: ParsedPage): MirrorPage => {
    next += 1;
    const shape = actual([page], idOfPath, readmeId)[0] as Omit<MirrorPage, 'id' | 'pages'>;
    const id = page.path === undefined ? `other${next}` : idOfPath.get(page.path)!;
    return { ...shape, id, slug: page.slug, pages: page.pages.map(convert) };
  };
  return { pages: pages.map(convert), files };
}

/** The README's slug shows only through the folder of its document children. */
function hasDocumentChild(page: { pages: readonly { type: string }[] }): boolean {
  return page.pages.some((child) => child.type === 'document');
}

function clean(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

describe('parseGitSyncLayout ∘ renderGitSyncLayout', () => {
  it('reads back the space it was rendered from, and renders it again identically', async () => {
    await fc.assert(
      fc.asyncProperty(space, async (source) => {
        const rendered = renderGitSyncLayout(source);
        const contents = new Map<string, string>();
        for (const [path, entry] of rendered.files) {
          contents.set(path, entry.kind === 'asset' ? '' : entry.content);
        }
        const idOfAsset = new Map(
          [...rendered.assetPaths].map(([id, path]) => [path.slice('.gitbook/assets/'.length), id]),
        );
        const parsed = await parseGitSyncLayout(
          (path) => contents.get(path),
          () => [...contents.keys()],
          { fileIdForAsset: (name) => idOfAsset.get(name) },
        );
        expect(parsed.problems).toEqual([]);
        expect(parsed.unlisted).toEqual([]);

        const idOfPath = new Map([...rendered.pagePaths].map(([id, path]) => [path, id]));
        const readmeId = idOfPath.get('README.md');
        expect(actual(parsed.pages, idOfPath, readmeId)).toEqual(expected(source.pages, readmeId));

        const again = renderGitSyncLayout(rebuild(parsed.pages, idOfPath, readmeId, source.files));
        expect([...again.files]).toEqual([...rendered.files]);
      }),
      { numRuns: 150 },
    );
  });
});
