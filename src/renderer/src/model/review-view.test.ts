import { describe, expect, it } from 'vitest';
import type { ChangeRequestSummary, PageDiff } from '../../../shared/contract/change-requests';
import { MARKDOWN_MAX_CHARS, markdownTree, safeHref } from './markdown-tree';
import { describeOutcome, inboxGroups, pageBadges } from './review-view';
import { parseRoute, routeHash } from './route';

const summary = (patch: Partial<ChangeRequestSummary>): ChangeRequestSummary => ({
  spaceId: 's1',
  space: 'Guide',
  organizationId: 'o1',
  organization: 'Northwind',
  id: 'cr',
  number: 1,
  subject: 'A change',
  status: 'open',
  author: { id: 'u1', displayName: 'Ada' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  outdated: false,
  comments: 0,
  pinned: false,
  waitingForYou: null,
  url: null,
  ...patch,
});

describe('review routes', () => {
  it('address the inbox and a change request (either tab), the space name encoded', () => {
    expect(parseRoute('#/review')).toEqual({ screen: 'review' });
    const route = { screen: 'change-request', space: 'a/b c', number: 4, view: 'changes' } as const;
    expect(routeHash(route)).toBe('#/review/a%2Fb%20c/4/changes');
    expect(parseRoute(routeHash(route))).toEqual(route);
    expect(parseRoute('#/review/s1/4')).toMatchObject({ view: 'overview', number: 4 });
    expect(parseRoute('#/review/s1/x')).toEqual({ screen: 'review' });
    expect(parseRoute('#/review/%E0%A4%A/4')).toEqual({ screen: 'review' });
  });
});

describe('the inbox', () => {
  it('puts what waits for the user first, pinned then newest first in each group', () => {
    const { waiting, others } = inboxGroups([
      summary({ number: 1, updatedAt: '2026-01-03T00:00:00Z' }),
      summary({ number: 2, waitingForYou: 'review-requested' }),
      summary({ number: 3, pinned: true }),
      summary({ number: 4, waitingForYou: 'approved', updatedAt: '2026-01-05T00:00:00Z' }),
    ]);
    expect(waiting.map((c) => c.number)).toEqual([4, 2]);
    expect(others.map((c) => c.number)).toEqual([3, 1]);
  });
});

describe('the diff', () => {
  it('badges a page added, removed, renamed, moved, edited', () => {
    const page: PageDiff = {
      pageId: 'p',
      type: 'document',
      title: 'T',
      path: 't.md',
      status: 'modified',
      renamedFrom: 'Old',
      moved: { fromParent: null, toParent: 'Guide' },
      fields: ['description'],
      contentChanged: true,
      added: 1,
      removed: 1,
      lines: [],
    };
    expect(pageBadges(page).map((b) => b.label)).toEqual([
      'Renamed',
      'Moved',
      'Edited',
      'Details changed',
    ]);
    expect(
      pageBadges({ ...page, status: 'added', renamedFrom: null, moved: null, fields: [] }),
    ).toEqual([{ label: 'Added', tone: 'ok' }]);
  });

  it('says what a merge or update did, conflicts with their pages', () => {
    const pages = [{ pageId: 'p', title: 'Setup', path: 'setup.md' }];
    expect(describeOutcome('merge', { result: 'conflicts', pages })).toMatchObject({
      kind: 'conflicts',
      pages,
    });
    expect(describeOutcome('update', { result: 'unchanged', revision: 'r' })).toEqual({
      kind: 'done',
      message: 'Already up to date with main.',
    });
  });
});

describe('comment Markdown', () => {
  it('parses to a tree where raw HTML is a node of its own, and refuses huge bodies', () => {
    const tree = markdownTree('Hi <img src=x onerror=alert(1)>\n\n<script>x</script>');
    expect(JSON.stringify(tree)).toContain('"type":"html"');
    expect(markdownTree('x'.repeat(MARKDOWN_MAX_CHARS + 1))).toBeNull();
  });

  it('keeps only web and mail links', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
  });
});
