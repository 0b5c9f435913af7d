import type { Fixture, FixturePage } from '../../src/server/fixture/fixture-schema';
import { Raster } from '../../src/server/fixture/demo/raster';
import { BENCH_TOKEN } from './bench-fixture';
import { pageId, pageMarkdown, pageTitle } from './content-fixture';

/**
 * Fixtures of `npm run bench:sync`: one space large enough for the initial mirror to cost
 * something, and a workspace with many small spaces for the sync with nothing changed.
 * Deterministic, so two runs mirror the same bytes.
 */

export const SYNC_ADMIN = 'u-sync-admin';
export const SYNC_LARGE_ORG = 'o-sync-large';
export const SYNC_LARGE_SPACE = 's-sync-large';
/** Pages per section of the large space: a section page, 7 children, 6 grandchildren each. */
const SECTION_PAGES = 50;
const CHILDREN = 7;
const GRANDCHILDREN = 6;
/** Sections per top-level group ("Part 1", "Part 2", …). */
const SECTIONS_PER_GROUP = 10;
/** pageTitle/pageMarkdown know 40 sections of 50 pages. */
export const MAX_LARGE_SPACE_PAGES = 2_000;
export const IMAGE_COUNT = 50;

/** Organizations and spaces of the many-spaces workspace. */
export const WORKSPACE_ORGS = 2;
export const SPACES_PER_ORG = 100;
export const PAGES_PER_SMALL_SPACE = 3;

function admin() {
  return {
    id: SYNC_ADMIN,
    displayName: 'Sync Bench Admin',
    email: 'sync-admin@bench.test',
    tokens: [BENCH_TOKEN],
  };
}

/** mulberry32, as content-fixture: seeded, so every run draws the same pixels. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PALETTE = [0x1b2a4a, 0x3b82f6, 0xdbeafe, 0xf1f5f9, 0xcbd5e1, 0x22c55e, 0xf59e0b, 0xef4444];

export interface BenchImage {
  id: string;
  name: string;
  png: Buffer;
  width: number;
  height: number;
}

/**
 * A small, valid PNG per index (a few KB): a window frame, coloured boxes and a "screenshot" strip
 * of seeded noise, so that every image has different bytes and does not compress to nothing.
 */
export function benchImage(index: number): BenchImage {
  const next = random(index * 31 + 7);
  const width = 320;
  const height = 200;
  const r = new Raster(width, height, 0xffffff).rect(0, 0, width, 22, PALETTE[0]!);
  for (let box = 0; box < 4; box++) {
    const color = PALETTE[1 + Math.floor(next() * (PALETTE.length - 1))]!;
    r.rect(16 + box * 74, 36, 62, 48, color).frame(16 + box * 74, 36, 62, 48, PALETTE[0]!);
  }
  for (let y = 100; y < 180; y++)
    for (let x = 16; x < 304; x += 4)
      r.rect(x, y, 4, 1, PALETTE[Math.floor(next() * PALETTE.length)]!);
  const name = `diagram-${String(index + 1).padStart(2, '0')}.png`;
  return { id: `f-sync-${index + 1}`, name, png: r.toPng(), width, height };
}

/** The index of the page that shows image `image` (a child page: three folders deep). */
function imagePageIndex(image: number, sections: number): number {
  const section = image % sections;
  const child = Math.floor(image / sections) % CHILDREN;
  return section * SECTION_PAGES + 1 + child * (GRANDCHILDREN + 1);
}

/**
 * The large space's pages: `pageCount / 50` sections (each a section page with 7 children of 6
 * grandchildren) under top-level groups of 10 sections. The page showing an image lives in
 * `<group>/<section>/<child>/README.md`, hence the `../../../` of its reference.
 */
function largeSpacePages(pageCount: number, images: readonly BenchImage[]): FixturePage[] {
  const sections = pageCount / SECTION_PAGES;
  const figures = new Map<number, BenchImage>();
  images.forEach((image, i) => figures.set(imagePageIndex(i, sections), image));
  const page = (index: number, pages?: FixturePage[]): FixturePage => {
    const image = figures.get(index);
    const figure = image
      ? `\n![${image.name}](../../../.gitbook/assets/${image.name})\n\nThe diagram above shows the flow described on this page.\n`
      : '';
    return {
      id: pageId(index),
      title: pageTitle(index),
      markdown: pageMarkdown(index) + figure,
      ...(pages ? { pages } : {}),
    };
  };
  const section = (s: number): FixturePage => {
    const first = s * SECTION_PAGES;
    return page(
      first,
      Array.from({ length: CHILDREN }, (_, c) => {
        const child = first + 1 + c * (GRANDCHILDREN + 1);
        return page(
          child,
          Array.from({ length: GRANDCHILDREN }, (_, g) => page(child + 1 + g)),
        );
      }),
    );
  };
  return Array.from({ length: Math.ceil(sections / SECTIONS_PER_GROUP) }, (_, g) => ({
    id: `grp-${g + 1}`,
    title: `Part ${g + 1}`,
    type: 'group' as const,
    pages: Array.from(
      { length: Math.min(SECTIONS_PER_GROUP, sections - g * SECTIONS_PER_GROUP) },
      (_, i) => section(g * SECTIONS_PER_GROUP + i),
    ),
  }));
}

/**
 * One organization with one space of `pageCount` document pages (a multiple of 50, at most
 * 2,000) of about 5 KB of Markdown each, nested three deep under groups, and `imageCount` (50,
 * or none for the push scenarios, where images only slow the mirror down) PNG images each shown
 * by one page.
 */
export function largeSpaceFixture(pageCount: number, imageCount = IMAGE_COUNT): Fixture {
  if (pageCount % SECTION_PAGES !== 0 || pageCount < 50 || pageCount > MAX_LARGE_SPACE_PAGES)
    throw new Error(`The large space has a multiple of 50 pages up to 2,000, not ${pageCount}`);
  const images = Array.from({ length: imageCount }, (_, i) => benchImage(i));
  return {
    users: [admin()],
    organizations: [
      {
        id: SYNC_LARGE_ORG,
        title: 'Sync Bench Corp',
        members: [{ user: SYNC_ADMIN, role: 'admin' }],
        spaces: [
          {
            id: SYNC_LARGE_SPACE,
            title: 'Large handbook',
            pages: largeSpacePages(pageCount, images),
            files: images.map((image) => ({
              id: image.id,
              name: image.name,
              contentType: 'image/png',
              base64: image.png.toString('base64'),
              dimensions: { width: image.width, height: image.height },
            })),
          },
        ],
      },
    ],
  };
}

/**
 * WORKSPACE_ORGS organizations of SPACES_PER_ORG spaces, each of PAGES_PER_SMALL_SPACE pages of
 * about 5 KB; one admin (BENCH_TOKEN) belongs to both.
 */
export function manySpacesFixture(): Fixture {
  return {
    users: [admin()],
    organizations: Array.from({ length: WORKSPACE_ORGS }, (_, o) => ({
      id: `o-sync-${o + 1}`,
      title: `Sync Bench Org ${o + 1}`,
      members: [{ user: SYNC_ADMIN, role: 'admin' as const }],
      spaces: Array.from({ length: SPACES_PER_ORG }, (_, s) => {
        const n = o * SPACES_PER_ORG + s;
        return {
          id: `s-sync-${o + 1}-${String(s + 1).padStart(3, '0')}`,
          title: `Team space ${String(s + 1).padStart(3, '0')}`,
          pages: Array.from({ length: PAGES_PER_SMALL_SPACE }, (_, p) => {
            const index = (n * PAGES_PER_SMALL_SPACE + p) % MAX_LARGE_SPACE_PAGES;
            return { title: pageTitle(index), markdown: pageMarkdown(index) };
          }),
        };
      }),
    })),
  };
}
