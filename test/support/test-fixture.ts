import type { Fixture } from '../../src/server/fixture/fixture-schema';

/**
 * The workspace most server tests run against. Roles cover every permission boundary:
 * Ada admin, Bob create, Cleo review, Dora edit, Finn comment, Cara read, Gus guest;
 * Eve administers another organization and must never see Acme.
 */
export const TOKENS = {
  ada: 'tok-ada-admin',
  bob: 'tok-bob-create',
  cleo: 'tok-cleo-review',
  dora: 'tok-dora-edit',
  finn: 'tok-finn-comment',
  cara: 'tok-cara-read',
  gus: 'tok-gus-guest',
  eve: 'tok-eve-other',
} as const;

export function testFixture(): Fixture {
  return {
    users: [
      { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@acme.test', tokens: [TOKENS.ada] },
      { id: 'u-bob', displayName: 'Bob Builder', email: 'bob@acme.test', tokens: [TOKENS.bob] },
      { id: 'u-cleo', displayName: 'Cleo Review', email: 'cleo@acme.test', tokens: [TOKENS.cleo] },
      { id: 'u-dora', displayName: 'Dora Edit', email: 'dora@acme.test', tokens: [TOKENS.dora] },
      { id: 'u-finn', displayName: 'Finn Comment', email: 'finn@acme.test', tokens: [TOKENS.finn] },
      { id: 'u-cara', displayName: 'Cara Reader', email: 'cara@acme.test', tokens: [TOKENS.cara] },
      { id: 'u-gus', displayName: 'Gus Guest', email: 'gus@partner.test', tokens: [TOKENS.gus] },
      { id: 'u-eve', displayName: 'Eve Other', email: 'eve@other.test', tokens: [TOKENS.eve] },
      { id: 'u-nina', displayName: 'Nina New', email: 'nina@acme.test' },
    ],
    organizations: [
      {
        id: 'o-acme',
        title: 'Acme',
        emailDomains: ['acme.test'],
        members: [
          { user: 'u-ada', role: 'admin', lastSeenAt: '2025-12-01T10:00:00.000Z' },
          { user: 'u-bob', role: 'create', lastSeenAt: '2025-12-02T10:00:00.000Z' },
          { user: 'u-cleo', role: 'review' },
          { user: 'u-dora', role: 'edit' },
          { user: 'u-finn', role: 'comment' },
          { user: 'u-cara', role: 'read' },
          { user: 'u-gus', role: null },
        ],
        invites: [
          { id: 'inv-1', role: 'read' },
          { id: 'inv-2', role: 'edit' },
        ],
        teams: [
          {
            id: 't-writers',
            title: 'Writers',
            members: [
              { user: 'u-bob', role: 'owner' },
              { user: 'u-dora', role: 'member' },
            ],
          },
          { id: 't-reviewers', title: 'Reviewers', members: [{ user: 'u-cleo' }] },
        ],
        collections: [
          { id: 'c-guides', title: 'Guides', description: 'How-to guides' },
          { id: 'c-advanced', title: 'Advanced', parent: 'c-guides' },
        ],
        customFields: [
          { name: 'owner', type: 'text', title: 'Owner' },
          { name: 'tier', type: 'select:single', title: 'Tier', options: ['gold', 'silver'] },
        ],
        spaces: [
          {
            id: 's-handbook',
            title: 'Handbook',
            emoji: '📘',
            pages: [
              { id: 'p-welcome', title: 'Welcome', markdown: '# Welcome\n\nHello.\n' },
              {
                id: 'p-guides',
                title: 'Guides',
                markdown: '# Guides\n',
                pages: [{ id: 'p-setup', title: 'Setup', markdown: '# Setup\n\nInstall it.\n' }],
              },
            ],
            grants: [
              { user: 'u-gus', role: 'comment' },
              { team: 't-writers', role: 'edit' },
            ],
          },
          { id: 's-api', title: 'API Reference', emoji: '🔌', collection: 'c-guides' },
          { id: 's-secret', title: 'Board notes', emoji: '🔒' },
        ],
      },
      {
        id: 'o-other',
        title: 'Other Corp',
        emailDomains: ['other.test'],
        members: [{ user: 'u-eve', role: 'admin' }],
        spaces: [{ id: 's-other', title: 'Other space' }],
        collections: [{ id: 'c-other', title: 'Other collection' }],
        teams: [{ id: 't-other', title: 'Other team', members: [{ user: 'u-eve' }] }],
        customFields: [{ name: 'region', type: 'text' }],
      },
    ],
  };
}

/** A 1×1 transparent PNG, the bytes of `f-diagram` in `contentFixture()`. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * The standard workspace plus `s-media` (Acme), a space with files (a PNG image, a PDF whose name
 * needs escaping) and every page type: document, group (with a child) and link. A separate
 * fixture, so lists and counts over the standard one are unaffected.
 */
export function contentFixture(): Fixture {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({
    id: 's-media',
    title: 'Media',
    pages: [
      { id: 'p-media-home', title: 'Home', markdown: '# Home\n\n![Diagram](/files/f-diagram)\n' },
      {
        id: 'p-media-group',
        title: 'Reference',
        type: 'group',
        pages: [
          {
            id: 'p-media-api',
            title: 'API',
            markdown: '# API\n\nSee [home](/pages/p-media-home).\n',
          },
        ],
      },
      { id: 'p-media-link', title: 'Website', type: 'link', href: 'https://example.com/' },
    ],
    files: [
      {
        id: 'f-diagram',
        name: 'diagram.png',
        contentType: 'image/png',
        base64: PNG_BASE64,
        dimensions: { width: 1, height: 1 },
      },
      {
        id: 'f-report',
        name: 'Relevé "final" v2.pdf',
        contentType: 'application/pdf',
        base64: Buffer.from('%PDF-1.4\n% not really\n').toString('base64'),
      },
    ],
  });
  return fixture;
}
