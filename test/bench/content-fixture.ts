import type { Fixture, FixturePage } from '../../src/server/fixture/fixture-schema';
import { BENCH_ORG, BENCH_TOKEN } from './bench-fixture';

export const CONTENT_SPACE = 's-bench-content';
export const CONTENT_SECTIONS = 40;
export const PAGES_PER_SECTION = 49;
/** Every page is a document page: 40 section pages and their 40 × 49 children. */
export const CONTENT_PAGE_COUNT = CONTENT_SECTIONS * (PAGES_PER_SECTION + 1);
/** Bodies are generated until they reach this many characters, so each is about 5 KB. */
const BODY_CHARS = 5_000;

const TOPICS = (
  'Accounts,Billing,Webhooks,Caching,Deployments,Monitoring,Alerting,Backups,Permissions,' +
  'Teams,Search,Imports,Exports,Integrations,Single sign-on,Audit logs,Rate limits,' +
  'Networking,Storage,Queues,Scheduling,Releases,Feature flags,Localization,Themes,Analytics,' +
  'Notifications,Security,Compliance,Migrations,Testing,Performance,Troubleshooting,CLI,SDKs,' +
  'REST API,GraphQL,Mobile apps,Onboarding,FAQ'
).split(',');

const VERBS = (
  'Configure Enable Rotate Inspect Migrate Scale Debug Automate Secure Tune Monitor Restore ' +
  'Validate Invite Archive Review'
).split(' ');

const NOUNS = (
  'tokens workers regions clusters policies domains retries payloads schemas quotas ' +
  'pipelines secrets snapshots indexes sessions roles events endpoints buckets jobs ' +
  'templates reports channels keys'
).split(' ');

const WORDS = (
  'the service request response configuration value default each when your team workspace ' +
  'server client option field returns error retry timeout after before every page space ' +
  'changes version release is are with without only must can should applies stored cached ' +
  'limit header token scope user admin setting environment production staging local command ' +
  'output log metric dashboard threshold window seconds minutes hourly daily queue worker ' +
  'job batch record database index query filter sort cursor list item object identifier ' +
  'unique stable secure encrypted signed verified reviewed approved merged deployed a an of ' +
  'to in on for by from and or not this that'
).split(' ');

/** mulberry32: a small, fast, seedable PRNG, so every run generates identical Markdown. */
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

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function sentence(next: () => number): string {
  const length = 8 + Math.floor(next() * 14);
  const words = Array.from({ length }, () => pick(next, WORDS));
  // Some inline formatting, as real documentation has.
  const styled = words.map((word, i) => {
    const roll = next();
    if (roll < 0.03) return `**${word}**`;
    if (roll < 0.06) return `\`${word}_${NOUNS[i % NOUNS.length]}\``;
    if (roll < 0.075) return `[${word}](https://docs.example.com/${word}/${i})`;
    return word;
  });
  const text = styled.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  return Array.from({ length: 2 + Math.floor(next() * 4) }, () => sentence(next)).join(' ');
}

function block(next: () => number, n: number): string {
  const roll = next();
  if (roll < 0.4) return paragraph(next);
  if (roll < 0.55) {
    const ordered = next() < 0.4;
    return Array.from(
      { length: 3 + Math.floor(next() * 4) },
      (_, i) => `${ordered ? `${i + 1}.` : '-'} ${sentence(next)}`,
    ).join('\n');
  }
  if (roll < 0.68) {
    const noun = pick(next, NOUNS);
    return [
      '```bash',
      `curl -X POST https://api.example.com/v1/${noun} \\`,
      `  -H "Authorization: Bearer $TOKEN" \\`,
      `  -d '{"name": "${pick(next, WORDS)}-${n}", "limit": ${Math.floor(next() * 1000)}}'`,
      '```',
    ].join('\n');
  }
  if (roll < 0.78) {
    const rows = Array.from(
      { length: 3 + Math.floor(next() * 3) },
      () =>
        `| \`${pick(next, NOUNS)}\` | ${pick(next, ['string', 'integer', 'boolean'])} | ${sentence(next)} |`,
    );
    return ['| Field | Type | Description |', '| --- | --- | --- |', ...rows].join('\n');
  }
  if (roll < 0.88) return `> **Note:** ${sentence(next)} ${sentence(next)}`;
  return `## ${pick(next, VERBS)} ${pick(next, NOUNS)}`;
}

/**
 * About 5 KB of realistic Markdown for page `index`: a leading `# title`, then paragraphs, lists,
 * code, tables and notes. `version` 0 is the fixture's body; other versions are the edits the
 * benchmark writes (same title, different text).
 */
export function pageMarkdown(index: number, version = 0): string {
  const next = random(index * 7919 + version * 104_729 + 1);
  const parts = [`# ${pageTitle(index)}`, paragraph(next)];
  let length = parts.join('\n\n').length;
  for (let n = 0; length < BODY_CHARS; n++) {
    const text = block(next, n);
    parts.push(text);
    length += text.length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}

function sectionOf(index: number): { section: number; child: number | undefined } {
  const section = Math.floor(index / (PAGES_PER_SECTION + 1));
  const offset = index % (PAGES_PER_SECTION + 1);
  return { section, child: offset === 0 ? undefined : offset - 1 };
}

/** Page `index` (0 … 1,999) in depth-first order: each section page, then its 49 children. */
export function pageId(index: number): string {
  const { section, child } = sectionOf(index);
  const s = String(section + 1).padStart(2, '0');
  return child === undefined ? `pg-${s}` : `pg-${s}-${String(child + 1).padStart(2, '0')}`;
}

export function pageTitle(index: number): string {
  const { section, child } = sectionOf(index);
  const topic = TOPICS[section]!;
  if (child === undefined) return topic;
  return `${VERBS[child % VERBS.length]} ${NOUNS[(child * 7 + section) % NOUNS.length]} (${section + 1}.${child + 1})`;
}

function contentPages(): FixturePage[] {
  return Array.from({ length: CONTENT_SECTIONS }, (_, section) => {
    const first = section * (PAGES_PER_SECTION + 1);
    return {
      id: pageId(first),
      title: pageTitle(first),
      markdown: pageMarkdown(first),
      pages: Array.from({ length: PAGES_PER_SECTION }, (_, child) => {
        const index = first + 1 + child;
        return { id: pageId(index), title: pageTitle(index), markdown: pageMarkdown(index) };
      }),
    };
  });
}

/**
 * One organization whose admin holds BENCH_TOKEN and one space of CONTENT_PAGE_COUNT document
 * pages (about 10 MB of Markdown). Deterministic, so two runs read and write the same bytes.
 */
export function contentSpaceFixture(): Fixture {
  return {
    users: [
      {
        id: 'u-bench-admin',
        displayName: 'Bench Admin',
        email: 'admin@bench.test',
        tokens: [BENCH_TOKEN],
      },
    ],
    organizations: [
      {
        id: BENCH_ORG,
        title: 'Bench Corp',
        members: [{ user: 'u-bench-admin', role: 'admin' }],
        spaces: [{ id: CONTENT_SPACE, title: 'Large handbook', pages: contentPages() }],
      },
    ],
  };
}
