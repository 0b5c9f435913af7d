import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { XSS_PAYLOADS } from '../ui/xss-payloads';

/**
 * The workspace the UI journeys sync: Northwind's Guide (edits, pause, conflicts) and Archive
 * (selective sync, the mass-delete guard), and an organization whose every title is an XSS
 * payload, so every live screen shows hostile server text.
 */
export const JOURNEY_TOKENS = {
  /** The token the first run signs in with; revoked by the last journey. */
  ada: 'tok-journey-ada',
  /** Signs in again once the first is revoked. */
  adaAgain: 'tok-journey-ada-2',
  /** Changes the server "as another user" (conflicts, remote edits). */
  bob: 'tok-journey-bob',
} as const;

export const GUIDE = 's-guide';
export const ARCHIVE = 's-archive';
export const HOSTILE_SPACE = 's-hostile';
export const ARCHIVE_PAGES = ['p-a1', 'p-a2', 'p-a3', 'p-a4', 'p-a5'] as const;

/** The hostile page: its title (the leading heading) and its text are payloads. */
export const HOSTILE_MARKDOWN = `# ${XSS_PAYLOADS[5]!}\n\nHostile page.\n\nTwo.\n\nThree.\n\n${XSS_PAYLOADS.join('\n\n')}\n`;

/** Titles at most 50 characters (the spec's limit for spaces and the like). */
const shortPayloads = XSS_PAYLOADS.filter((payload) => payload.length <= 50);

export function journeyFixture(): Fixture {
  return {
    users: [
      {
        id: 'u-ada',
        displayName: 'Ada Lovelace',
        email: 'ada@northwind.test',
        tokens: [JOURNEY_TOKENS.ada, JOURNEY_TOKENS.adaAgain],
      },
      {
        id: 'u-bob',
        displayName: XSS_PAYLOADS[0]!,
        email: 'bob@northwind.test',
        tokens: [JOURNEY_TOKENS.bob],
      },
    ],
    organizations: [
      {
        id: 'o-north',
        title: 'Northwind',
        members: [
          { user: 'u-ada', role: 'admin' },
          { user: 'u-bob', role: 'admin' },
        ],
        spaces: [
          {
            id: GUIDE,
            title: 'Guide',
            pages: [
              { id: 'p-welcome', title: 'Welcome', markdown: '# Welcome\n\nHello.\n' },
              {
                id: 'p-setup',
                title: 'Setup',
                markdown: '# Setup\n\nOne.\n\nTwo.\n\nThree.\n',
              },
              {
                id: 'p-usage',
                title: 'Usage',
                markdown: '# Usage\n\nFirst.\n\nSecond.\n\nThird.\n',
              },
              { id: 'p-faq', title: 'FAQ', markdown: '# FAQ\n\nAsk.\n\nAnswer.\n\nMore.\n' },
            ],
          },
          {
            id: ARCHIVE,
            title: 'Archive',
            pages: ARCHIVE_PAGES.map((id, i) => ({
              id,
              title: `Old note ${i + 1}`,
              markdown: `# Old note ${i + 1}\n\nKept for the record.\n`,
            })),
          },
        ],
      },
      {
        id: 'o-hostile',
        title: `Hostile ${XSS_PAYLOADS[9]!}`,
        members: [
          { user: 'u-ada', role: 'admin' },
          { user: 'u-bob', role: 'admin' },
        ],
        spaces: [
          {
            id: HOSTILE_SPACE,
            title: shortPayloads[0]!,
            pages: [
              {
                id: 'p-hostile',
                title: XSS_PAYLOADS[5]!,
                markdown: HOSTILE_MARKDOWN,
              },
              ...XSS_PAYLOADS.slice(1, 6).map((title, i) => ({
                id: `p-x${i}`,
                title,
                markdown: `${XSS_PAYLOADS[(i + 7) % XSS_PAYLOADS.length]!}\n`,
              })),
            ],
          },
        ],
      },
    ],
  };
}
