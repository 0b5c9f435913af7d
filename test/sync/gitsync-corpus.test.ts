/**
 * Round trip through real Git Sync output: GitBook's own documentation repository, as GitBook's
 * Git Sync wrote it (../shared/corpus/gitbook-public-docs, see its README). Each space folder is
 * parsed into a page tree, the tree is rendered back with renderGitSyncLayout, and every file is
 * compared byte for byte with the original: each difference is churn a Git Sync user would see.
 *
 * Three ways a server can hold the same space are checked:
 * - as stored: each page's Markdown is the file as Git pushed it (frontmatter included), the page
 *   fields are the ones the server reads from it (description, icon, hidden, …);
 * - API fields: the Markdown has no frontmatter, cover and layout are API objects;
 * - stable refs: as API fields, with asset references as `/files/<id>` (the parser's
 *   fileIdForAsset mode), which rendering turns back into relative paths;
 * - page refs: as stable refs, with every relative link to a page (`setup.md`, `dir/`, `./`,
 *   `../section/#anchor`) as `/pages/<id>`, as the engine pushes them, which rendering turns back
 *   into the links Git Sync writes (a page with children by its folder): a fresh mirror;
 * - page refs, forms kept: the same space pulled again into a folder that holds these files, so
 *   the links are written in the forms each file has (pulledWrittenTexts).
 *
 * The corpus holds no binary assets; ASSETS.tsv lists their paths, which stand in for them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MirrorFile, MirrorPage, MirrorSpace } from '../../src/shared/gitsync/gitsync-types';
import {
  parseGitSyncLayout,
  type ParsedGitSyncLayout,
  type ParsedPage,
} from '../../src/main/mirror/parse-gitsync-layout';
import { resolveWrittenTarget } from '../../src/shared/gitsync/page-link-forms';
import { renderGitSyncLayout } from '../../src/shared/gitsync/render-gitsync-layout';
import {
  rewriteLinkTargets,
  type LinkTargetContext,
} from '../../src/main/mirror/rewrite-link-targets';
import { corpusAvailable, SHARED_CORPUS } from '../support/shared-corpus';

const CORPUS = SHARED_CORPUS;

type Variant = 'as stored' | 'API fields' | 'stable refs' | 'page refs' | 'page refs, forms kept';

const withPageRefs = (variant: Variant) => variant.startsWith('page refs');

/**
 * Files a variant cannot reproduce, each with the reason. Anything else that differs fails.
 */
const TAGS =
  'frontmatter `tags` (page tags) is no field of the API page model; only Markdown that carries ' +
  'its frontmatter keeps it (the "as stored" variant reproduces this file)';
const SKILL_KEYS =
  'frontmatter `name` and `metadata` of a SKILL.md page are no page fields; only Markdown that ' +
  'carries its frontmatter keeps them (the "as stored" variant reproduces this file)';
const WITHOUT_FRONTMATTER_IN_MARKDOWN: Record<string, string> = {
  'changelog/README.md': TAGS,
  'documentation/ai-for-your-readers/connections.md': TAGS,
  'documentation/create-content/content-structure/page/tags.md': TAGS,
  'documentation/docs-as-code/gitbook-mcp.md': TAGS,
  'documentation/getting-started/sites-first.md': TAGS,
  'documentation/gitbook-agent/automatic-docs-improvements.md': TAGS,
  'documentation/gitbook-agent/channels.md': TAGS,
  'documentation/gitbook-agent/translations.md': TAGS,
  'documentation/skill/README.md': SKILL_KEYS,
  'documentation/skill/build-integration.md': SKILL_KEYS,
  'documentation/skill/configure-site.md': SKILL_KEYS,
  'documentation/skill/cr-create.md': SKILL_KEYS,
  'documentation/skill/cr-review.md': SKILL_KEYS,
  'documentation/skill/write-docs.md': SKILL_KEYS,
  'documentation/skill/write-openapi.md': SKILL_KEYS,
  'documentation/account-and-billing/billing-faq/free-trial.md':
    'hand-edited in Git: its 82-column description is not folded (`>-`) as GitBook writes it; ' +
    'frontmatter is re-serialised from page fields unless the Markdown carries it unchanged',
};

const KNOWN_DIFFERENCES: Record<Variant, Record<string, string>> = {
  'as stored': {},
  'API fields': WITHOUT_FRONTMATTER_IN_MARKDOWN,
  'stable refs': WITHOUT_FRONTMATTER_IN_MARKDOWN,
  'page refs': {
    ...WITHOUT_FRONTMATTER_IN_MARKDOWN,
    'documentation/account-and-billing/billing-faq/payments-and-invoices.md':
      'hand-edited in Git: links a page with children as `../plans/community/README.md`, which ' +
      'Git Sync writes only in SUMMARY.md; a fresh mirror writes Git Sync’s `../plans/community/`, ' +
      'a folder that holds the file keeps its form ("page refs, forms kept")',
  },
  'page refs, forms kept': WITHOUT_FRONTMATTER_IN_MARKDOWN,
};

/** Corpus files outside the page/file model: GitBook-owned configuration the mirror leaves alone. */
const NOT_MODELLED = ['changelog/.gitbook/tags.yaml', 'documentation/.gitbook/tags.yaml'];

interface CorpusSpace {
  folder: string;
  /** Relative paths of the files on disk. */
  disk: string[];
  /** Asset names from ASSETS.tsv and the disk. */
  assets: string[];
}

function loadSpaces(): CorpusSpace[] {
  const docs = readFileSync(join(CORPUS, 'docs.yaml'), 'utf8');
  const folders = [...docs.matchAll(/^\s*directory: \.\/(\S+)\s*$/gm)].map((m) => m[1] ?? '');
  const listedAssets = readFileSync(join(CORPUS, 'ASSETS.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => unquoteGitPath(line.slice(line.indexOf('\t') + 1)));
  return folders.map((folder) => {
    const root = join(CORPUS, folder);
    const disk = walk(root).map((path) => relative(root, path).split('\\').join('/'));
    const prefix = `${folder}/.gitbook/assets/`;
    const assets = new Set(
      listedAssets
        .filter((path) => path.startsWith(prefix))
        .map((path) => path.slice(prefix.length)),
    );
    for (const path of disk) {
      if (path.startsWith('.gitbook/assets/')) assets.add(path.slice('.gitbook/assets/'.length));
    }
    return { folder, disk, assets: [...assets].sort() };
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Git's C-style quoting of unusual paths (`"a\342\200\257b.png"`). */
function unquoteGitPath(path: string): string {
  if (!path.startsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] ?? '';
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1))?.[0];
    if (octal) {
      bytes.push(parseInt(octal, 8));
      i += 3;
    } else {
      const escaped = body[i + 1] ?? '';
      bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[escaped] ?? 0);
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface RoundTrip {
  compared: number;
  /** `/files/<id>` references in the parsed Markdown. */
  fileRefs: number;
  /** `/pages/<id>` references in the Markdown the server holds. */
  pageRefs: number;
  differing: string[];
  missing: string[];
  extra: string[];
  summariesIdentical: boolean;
}

async function roundTrip(space: CorpusSpace, variant: Variant): Promise<RoundTrip> {
  const root = join(CORPUS, space.folder);
  const files: MirrorFile[] = space.assets.map((name, i) => ({
    id: `file${i}`,
    name,
    contentType: 'application/octet-stream',
    size: 0,
  }));
  const fileIds = new Map(files.map((file) => [file.name, file.id]));
  const read = (path: string) =>
    existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;
  const listing = [...space.disk, ...space.assets.map((name) => `.gitbook/assets/${name}`)];
  const parsed = await parseGitSyncLayout(
    read,
    () => listing,
    variant === 'stable refs' || withPageRefs(variant)
      ? { fileIdForAsset: (name) => fileIds.get(name) }
      : {},
  );
  expect(parsed.problems).toEqual([]);
  expect(parsed.summary).toBe('found');

  const mirror: MirrorSpace = { pages: toMirrorPages(parsed, variant, read, fileIds), files };
  const pageRefs = countPageRefs(mirror.pages);
  const rendered = renderGitSyncLayout(
    mirror,
    // The text each file was last synced with is the corpus file itself (see pulledWrittenTexts).
    variant === 'page refs, forms kept' ? { writtenText: (_id, path) => read(path) } : {},
  );

  const expected = new Set(
    space.disk.filter(
      (path) =>
        !NOT_MODELLED.includes(`${space.folder}/${path}`) && !path.startsWith('.gitbook/assets/'),
    ),
  );
  const expectedAssets = new Set(space.assets.map((name) => `.gitbook/assets/${name}`));
  const result: RoundTrip = {
    compared: 0,
    fileRefs: countFileRefs(parsed.pages),
    pageRefs,
    differing: [],
    missing: [],
    extra: [],
    summariesIdentical: true,
  };
  for (const [path, entry] of rendered.files) {
    const corpusPath = `${space.folder}/${path}`;
    if (entry.kind === 'asset') {
      if (!expectedAssets.delete(path)) result.extra.push(corpusPath);
      continue;
    }
    if (!expected.delete(path)) {
      result.extra.push(corpusPath);
      continue;
    }
    result.compared += 1;
    if (entry.content !== read(path)) {
      result.differing.push(corpusPath);
      if (entry.kind === 'summary') result.summariesIdentical = false;
    }
  }
  result.missing.push(...[...expected, ...expectedAssets].map((path) => `${space.folder}/${path}`));
  return result;
}

function countFileRefs(pages: readonly ParsedPage[]): number {
  return pages.reduce(
    (sum, page) =>
      sum + (page.markdown?.match(/\/files\/file\d+/g)?.length ?? 0) + countFileRefs(page.pages),
    0,
  );
}

function countPageRefs(pages: readonly MirrorPage[]): number {
  return pages.reduce(
    (sum, page) =>
      sum + (page.markdown?.match(/\/pages\/p\d+/g)?.length ?? 0) + countPageRefs(page.pages),
    0,
  );
}

/** Every page file of a parsed layout. */
function pageFiles(pages: readonly ParsedPage[], out = new Set<string>()): Set<string> {
  for (const page of pages) {
    if (page.type === 'document' && page.path !== undefined) out.add(page.path);
    pageFiles(page.pages, out);
  }
  return out;
}

/** The `/pages/<id>[#anchor]` a relative page link written in `from` stands for. */
function pageRefOf(
  files: ReadonlySet<string>,
  idOfPath: (path: string) => string,
): (from: string, written: string, context: LinkTargetContext) => string | undefined {
  const isFile = (path: string) => files.has(path) || path.startsWith('.gitbook/assets/');
  return (from, written, context) => {
    const found = resolveWrittenTarget(from, written, isFile, { bare: context === 'markdown' });
    return found === undefined || !files.has(found.path)
      ? undefined
      : `/pages/${idOfPath(found.path)}${found.anchor}`;
  };
}

/** Builds the server-side page tree a space like this would have, with synthetic ids. */
function toMirrorPages(
  parsed: ParsedGitSyncLayout,
  variant: Variant,
  read: (path: string) => string | undefined,
  fileIds: ReadonlyMap<string, string>,
): MirrorPage[] {
  const ids = new Map<string, string>();
  let next = 0;
  const idOf = (key: string) => {
    let id = ids.get(key);
    if (id === undefined) {
      next += 1;
      id = `p${next}`;
      ids.set(key, id);
    }
    return id;
  };

  const refOf = pageRefOf(pageFiles(parsed.pages), (path) => idOf(`page:${path}`));
  // Relative page links as the engine pushes them (serverReferences): `/pages/<id>[#anchor]`.
  const serverForm = (markdown: string, from: string) =>
    rewriteLinkTargets(markdown, (written, context) => refOf(from, written, context));

  const convert = (page: ParsedPage): MirrorPage => {
    const base = { title: page.title, slug: page.slug, pages: page.pages.map(convert) };
    const linkTitle = page.linkTitle ? { linkTitle: page.linkTitle } : {};
    switch (page.type) {
      case 'group':
        return { id: idOf(`group:${page.slug}`), type: 'group', ...base };
      case 'computed':
        return {
          id: idOf(`computed:${next}`),
          type: 'computed',
          ...base,
          computed: page.computed!,
        };
      case 'link': {
        const href = page.target
          ? `/pages/${idOf(`page:${page.target.path}`)}${page.target.anchor === undefined ? '' : `#${page.target.anchor}`}`
          : page.href!;
        return { id: idOf(`link:${next}`), type: 'link', ...base, ...linkTitle, href };
      }
      case 'document': {
        const fields = {
          ...(page.description !== undefined ? { description: page.description } : {}),
          ...(page.icon !== undefined ? { icon: page.icon } : {}),
          ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
          ...(page.hidden ? { hidden: true } : {}),
          ...(page.noIndex ? { noIndex: true } : {}),
          ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
        };
        const page_: MirrorPage = {
          id: idOf(`page:${page.path}`),
          type: 'document',
          ...base,
          ...linkTitle,
          ...fields,
          markdown:
            variant === 'as stored'
              ? read(page.path!)!
              : withPageRefs(variant)
                ? serverForm(page.markdown!, page.path!)
                : page.markdown!,
        };
        if (variant !== 'as stored') {
          if (page.layout) page_.layout = page.layout;
          if (page.cover) {
            const fileId = page.cover.assetName && fileIds.get(page.cover.assetName);
            page_.cover = {
              ref: fileId ? { kind: 'file', file: fileId } : { kind: 'url', url: page.cover.src },
              ...(page.cover.yPos !== undefined ? { yPos: page.cover.yPos } : {}),
              ...(page.cover.height !== undefined ? { height: page.cover.height } : {}),
            };
          }
        }
        return page_;
      }
    }
  };
  return parsed.pages.map(convert);
}

describe.skipIf(!corpusAvailable)('Git Sync corpus round trip (GitBook public docs)', () => {
  const spaces = corpusAvailable ? loadSpaces() : [];

  it('finds the five synced spaces of docs.yaml', () => {
    expect(spaces.map((space) => space.folder).sort()).toEqual([
      'changelog',
      'developers',
      'documentation',
      'guides',
      'policies',
    ]);
  });

  for (const variant of [
    'as stored',
    'API fields',
    'stable refs',
    'page refs',
    'page refs, forms kept',
  ] as const) {
    it(`reproduces every page file and SUMMARY.md (${variant})`, async () => {
      let compared = 0;
      let fileRefs = 0;
      let pageRefs = 0;
      const differing: string[] = [];
      for (const space of spaces) {
        const result = await roundTrip(space, variant);
        expect(result.missing).toEqual([]);
        expect(result.extra).toEqual([]);
        expect(result.summariesIdentical).toBe(true);
        compared += result.compared;
        fileRefs += result.fileRefs;
        pageRefs += result.pageRefs;
        differing.push(...result.differing);
      }
      // 5 SUMMARY.md files and 283 page files (the corpus's other Markdown files are two
      // uploaded assets, AGENTS.md and a reusable-content include outside the spaces).
      expect(compared).toBe(288);
      // Every asset reference the corpus makes outside code is a `/files/<id>` ref in this mode.
      expect(fileRefs).toBe(variant === 'stable refs' || withPageRefs(variant) ? 691 : 0);
      // Every page link the corpus makes outside code is a `/pages/<id>` ref in these modes.
      expect(pageRefs).toBe(withPageRefs(variant) ? 821 : 0);
      expect(differing.sort()).toEqual(Object.keys(KNOWN_DIFFERENCES[variant]).sort());
    });
  }
});
