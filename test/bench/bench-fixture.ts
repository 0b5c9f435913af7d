import type { Fixture, FixturePage } from '../../src/server/fixture/fixture-schema';

/** The admin token of the generated organization (local benchmark databases only). */
export const BENCH_TOKEN = 'quire-bench-admin-token';
export const BENCH_ORG = 'o-bench';
export const BENCH_SPACE = 's-bench-handbook';

const ROLES = ['read', 'comment', 'edit', 'review', 'create', null] as const;

function pad(n: number): string {
  return String(n).padStart(4, '0');
}

/** A small nested page tree so the space has a realistic revision behind it. */
function handbookPages(): FixturePage[] {
  return Array.from({ length: 4 }, (_, chapter) => ({
    title: `Chapter ${chapter + 1}`,
    markdown: `# Chapter ${chapter + 1}\n\nOverview of chapter ${chapter + 1}.\n`,
    pages: Array.from({ length: 3 }, (_, section) => ({
      title: `Section ${chapter + 1}.${section + 1}`,
      markdown: `# Section ${chapter + 1}.${section + 1}\n\n${'Lorem ipsum dolor sit amet. '.repeat(20)}\n`,
    })),
  }));
}

/**
 * One organization with `memberCount` members (users u-0000, u-0001, …; u-0000 is the admin who
 * holds BENCH_TOKEN), a collection, a few spaces and one space grant. Deterministic, so two runs
 * serve identical JSON.
 */
export function largeOrgFixture(memberCount = 5000): Fixture {
  const users = Array.from({ length: memberCount }, (_, i) => ({
    id: `u-${pad(i)}`,
    displayName: `Bench Member ${pad(i)}`,
    email: `member-${pad(i)}@bench.test`,
    ...(i === 0 ? { tokens: [BENCH_TOKEN] } : {}),
  }));
  const members = users.map((user, i) => ({
    user: user.id,
    role: i === 0 ? ('admin' as const) : (ROLES[i % ROLES.length] ?? null),
    // Half the members have been seen, so `sort=lastSeenAt` has something to page through.
    ...(i % 2 === 0
      ? { lastSeenAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() }
      : {}),
  }));
  return {
    users,
    organizations: [
      {
        id: BENCH_ORG,
        title: 'Bench Corp',
        emailDomains: ['bench.test'],
        members,
        teams: [
          {
            id: 't-bench-writers',
            title: 'Writers',
            members: [{ user: 'u-0001', role: 'owner' }, { user: 'u-0002' }],
          },
        ],
        collections: [{ id: 'c-bench-guides', title: 'Guides', description: 'How-to guides' }],
        spaces: [
          {
            id: BENCH_SPACE,
            title: 'Handbook',
            emoji: '📘',
            collection: 'c-bench-guides',
            pages: handbookPages(),
            grants: [
              { user: 'u-0003', role: 'comment' },
              { team: 't-bench-writers', role: 'edit' },
            ],
          },
          { id: 's-bench-api', title: 'API Reference', emoji: '🔌' },
          { id: 's-bench-notes', title: 'Release notes' },
        ],
      },
    ],
  };
}
