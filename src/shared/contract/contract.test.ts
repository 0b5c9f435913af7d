import { describe, expect, it } from 'vitest';
import type { ActivityEntry, WatchRunSummary } from './activity';
import type { CommandError, CommandErrorKind } from './command-error';
import type { ConflictListing } from './conflicts';
import type { RefusedChangeListing } from './local-changes';
import type { ChangeRequestDetail, ChangeRequestSummary } from './change-requests';
import type { ChangeRequestCheckout, CommentThread, CommentView } from './review';
import {
  COMMAND_NAMES,
  type CommandArgs,
  type CommandName,
  type CommandOutcome,
  type CommandResult,
} from './quire-commands';
import { EVENT_NAMES, type EventName, type QuireEvents } from './quire-events';
import type { SpaceStatus, SyncOnceResult } from './spaces';
import type { SyncError, SyncErrorKind } from './sync-error';
import type { SyncStatusSnapshot } from './sync-status';

/**
 * Every type of the contract is plain data: a value of each (every command's argument and
 * result, every event, every error kind) comes back from JSON unchanged. The samples are typed
 * by mapped types, so a new command, event or error kind fails to compile until it has one.
 */
const user = { id: 'u-ada', displayName: 'Ada', email: 'ada@acme.test' };
const conflict: ConflictListing = {
  id: 3,
  spaceId: 's-1',
  spaceTitle: 'Handbook',
  pageId: 'p-1',
  pageTitle: 'Setup',
  path: 'guides/setup.md',
  file: '/m/Acme/Handbook/guides/setup.md',
  kind: 'content',
  message: 'both sides edited line 5',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const refused: RefusedChangeListing = {
  id: 4,
  spaceId: 's-1',
  kind: 'update_page',
  path: 'Acme/Handbook/a.md',
  reason: 'title too long',
  holds: ['Acme/Handbook/a/b.md'],
};
const spaceStatus: SpaceStatus = {
  id: 's-1',
  title: 'Handbook',
  organization: 'Acme',
  folder: 'Acme/Handbook',
  enabled: true,
  state: 'synced',
  revision: 'r-2',
  remoteRevision: 'r-2',
  pages: 3,
  lastSync: '2026-01-01T00:00:00.000Z',
  errors: [],
  changeRequest: { number: 4, subject: 'Edits from laptop', url: null },
};
const snapshot: SyncStatusSnapshot = {
  state: 'problems',
  pending: 1,
  lastSync: null,
  paused: false,
  pausedUntil: null,
  conflicts: 0,
  error: null,
  tokenRejected: false,
  spaces: [
    {
      id: 's-1',
      title: 'Handbook',
      folder: 'Acme/Handbook',
      enabled: true,
      state: 'outdated',
      pending: 1,
      conflicts: 0,
      lastSync: null,
      errors: [],
    },
  ],
  problems: [{ path: 'Acme/Handbook/x.md', message: 'bad', spaceId: 's-1', kind: 'not-pushed' }],
};
const syncOnce: SyncOnceResult = {
  spaces: [
    {
      id: 's-1',
      title: 'Handbook',
      outcome: 'pulled',
      pushed: 2,
      revision: 'r-3',
      filesWritten: 4,
      filesRemoved: 1,
      conflicts: 0,
      problems: ['x.md: bad'],
    },
  ],
  errors: [],
};
const entry: ActivityEntry = {
  id: 1,
  at: '2026-01-01T00:00:00.000Z',
  kind: 'pulled',
  spaceId: 's-1',
  spaceTitle: 'Handbook',
  summary: 'Pulled revision r-3: 4 files written',
  files: ['Acme/Handbook/README.md'],
};
const run: WatchRunSummary = {
  kind: 'push',
  reason: 'change',
  finishedAt: '2026-01-01T00:00:00.000Z',
  pushed: 1,
  written: 0,
  removed: 0,
  offline: false,
  failures: [],
};
const settings = {
  server: 'https://docs.example.com',
  folder: '/m',
  changeRequestSubject: null,
  defaultChangeRequestSubject: 'Edits from laptop',
  syncIntervalMs: 30_000,
  ignorePatterns: ['drafts/'],
};

const changeRequest: ChangeRequestSummary = {
  spaceId: 's-1',
  space: 'Handbook',
  organizationId: 'o-1',
  organization: 'Acme',
  id: 'cr-4',
  number: 4,
  subject: 'Fix setup',
  status: 'open',
  author: { id: 'u-2', displayName: 'Bo' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  outdated: false,
  comments: 2,
  pinned: false,
  waitingForYou: 'review-requested',
  url: null,
};

const detail: ChangeRequestDetail = {
  ...changeRequest,
  revision: 'r-2',
  baseRevision: 'r-1',
  reviews: [
    {
      reviewer: { id: 'u-2', displayName: 'Bo' },
      status: 'changes-requested',
      outdated: false,
      createdAt: entry.at,
    },
  ],
  requestedReviewers: [{ user: { id: 'u-1', displayName: 'Ada' }, requestedAt: entry.at }],
  contributors: [
    {
      user: { id: 'u-2', displayName: 'Bo' },
      actionType: 'edit',
      count: 1,
      updatedAt: entry.at,
    },
  ],
  fetchedAt: entry.at,
};

const reply: CommentView = {
  id: 'local-2',
  author: { id: 'u-ada', displayName: 'Ada' },
  body: 'Fixed in **p. 2**',
  postedAt: '2026-01-02T00:00:00.000Z',
  editedAt: null,
  reactions: [],
  pending: 'create',
  problem: null,
  canEdit: true,
};

const thread: CommentThread = {
  ...reply,
  id: 'c-1',
  author: { id: 'u-2', displayName: 'Bo' },
  body: 'Typo?',
  pending: null,
  reactions: [{ emoji: '👍', count: 2, mine: true }],
  page: { id: 'p-1', title: 'Setup', path: 'guides/setup' },
  resolved: false,
  replies: [reply],
};

const checkout: ChangeRequestCheckout = {
  spaceId: 's-1',
  space: 'Handbook',
  number: 4,
  subject: 'Fix setup',
  status: 'open',
  folder: '/home/ada/Quire/Acme/Handbook (change requests)/4 Fix setup',
  pending: 1,
  closedWithPendingEdits: false,
};

const commands: { [K in CommandName]: { args: CommandArgs<K>; result: CommandResult<K> } } = {
  appInfo: { args: {}, result: { name: 'Quire', version: '0.1.0' } },
  checkServerUrl: {
    args: { server: 'http://docs.example.com/v1' },
    result: { origin: 'http://docs.example.com', cleartext: true },
  },
  login: {
    args: { server: 'https://docs.example.com', token: 't', folder: '/m' },
    result: {
      server: 'https://docs.example.com',
      folder: '/m',
      user,
      warnings: [{ kind: 'other-mirror', message: '/m already holds a mirror' }],
    },
  },
  logout: {
    args: {},
    result: { loggedOut: true, server: 'https://docs.example.com', folder: '/m' },
  },
  connection: {
    args: {},
    result: {
      state: 'logged-in',
      server: 'https://docs.example.com',
      folder: '/m',
      user,
      runner: { pid: 7, host: 'laptop', command: 'quire sync --watch', since: entry.at },
    },
  },
  listSpaces: {
    args: {},
    result: {
      organizations: [{ id: 'o-1', title: 'Acme' }],
      spaces: [
        {
          id: 's-1',
          title: 'Handbook',
          emoji: '📘',
          organizationId: 'o-1',
          organization: 'Acme',
          enabled: true,
          folder: 'Acme/Handbook',
        },
      ],
      errors: ['Listing the spaces of Other: 500'],
    },
  },
  spaceStatuses: { args: {}, result: [spaceStatus] },
  setSpaceEnabled: { args: { spaceId: 's-1', enabled: false }, result: null },
  syncNow: {
    args: {},
    result: { kind: 'ran', ...syncOnce, pause: { paused: true, until: null } },
  },
  pause: { args: { until: entry.at }, result: { paused: true, until: entry.at } },
  resume: { args: {}, result: { paused: false, until: null } },
  confirmDeletes: { args: { spaceId: 's-1' }, result: null },
  conflicts: { args: {}, result: [conflict] },
  conflictVersions: {
    args: { id: 3 },
    result: { conflict, base: 'a\n', mine: null, theirs: 'b\n', binary: false },
  },
  resolveConflict: { args: { id: 3, choice: { mode: 'merged', text: 'c\n' } }, result: conflict },
  refusedChanges: { args: {}, result: [refused] },
  retryRefused: { args: { id: null }, result: { count: 2 } },
  dropRefused: { args: { id: 4 }, result: refused },
  unsyncedEdits: {
    args: {},
    result: [{ spaceId: 's-1', path: 'Acme/Handbook/b.md', change: 'moved', from: 'Acme/a.md' }],
  },
  status: { args: {}, result: snapshot },
  activity: { args: { limit: 50 }, result: [entry] },
  settings: { args: {}, result: settings },
  updateSettings: {
    args: { changeRequestSubject: null, syncIntervalMs: 60_000, ignorePatterns: ['drafts/'] },
    result: settings,
  },
  moveFolder: { args: { folder: '/home/me/Docs' }, result: settings },
  capabilities: { args: {}, result: { openPath: true, startDemo: false, desktopSettings: false } },
  openPath: { args: { conflictId: 3 }, result: null },
  startDemo: {
    args: { folder: '/m' },
    result: { server: 'http://127.0.0.1:8787', folder: '/m', user, warnings: [] },
  },
  desktopSettings: { args: {}, result: { launchAtLogin: false, notifications: true } },
  updateDesktopSettings: {
    args: { notifications: false },
    result: { launchAtLogin: false, notifications: false },
  },
  changeRequests: { args: {}, result: [changeRequest] },
  changeRequest: { args: { space: 's-1', number: 4 }, result: detail },
  pinChangeRequest: { args: { space: 'Handbook', number: 4, pinned: true }, result: null },
  changeRequestDiff: {
    args: { space: 'Handbook', number: 4 },
    result: {
      spaceId: 's-1',
      number: 4,
      pages: [
        {
          pageId: 'p-1',
          type: 'document',
          title: 'Setup',
          path: 'guides/setup',
          status: 'modified',
          renamedFrom: 'Install',
          moved: { fromParent: null, toParent: 'Guides' },
          fields: ['description'],
          contentChanged: true,
          added: 1,
          removed: 1,
          lines: [
            { kind: 'skipped', count: 3 },
            {
              kind: 'removed',
              oldLine: 4,
              newLine: null,
              segments: [
                { text: 'Run ', changed: false },
                { text: 'make', changed: true },
              ],
            },
            {
              kind: 'added',
              oldLine: null,
              newLine: 4,
              segments: [
                { text: 'Run ', changed: false },
                { text: 'npm', changed: true },
              ],
            },
          ],
        },
      ],
    },
  },
  comments: { args: { space: 'Handbook', number: 4, pageId: null }, result: [thread] },
  postComment: {
    args: { space: 'Handbook', number: null, pageId: 'p-1', body: 'Typo?' },
    result: thread,
  },
  replyToComment: {
    args: { space: 'Handbook', number: 4, commentId: 'c-1', body: 'Fixed' },
    result: reply,
  },
  editComment: {
    args: { space: 'Handbook', number: 4, commentId: 'c-1', replyId: null, body: 'Typo!' },
    result: null,
  },
  deleteComment: {
    args: { space: 'Handbook', number: 4, commentId: 'c-1', replyId: 'local-2' },
    result: null,
  },
  reactToComment: {
    args: { space: 'Handbook', number: 4, commentId: 'c-1', replyId: null, emoji: '👍', add: true },
    result: null,
  },
  setCommentResolved: {
    args: { space: 'Handbook', number: 4, commentId: 'c-1', resolved: true },
    result: null,
  },
  setChangeRequestSubject: {
    args: { space: 'Handbook', number: 4, subject: 'Fix' },
    result: 'sent',
  },
  setChangeRequestStatus: {
    args: { space: 'Handbook', number: 4, status: 'open' },
    result: 'queued',
  },
  setReviewers: {
    args: { space: 'Handbook', number: 4, add: ['bo@example.com'], remove: [] },
    result: null,
  },
  reviewChangeRequest: {
    args: { space: 'Handbook', number: 4, verdict: 'changes-requested', comment: 'See p. 2' },
    result: detail,
  },
  updateChangeRequest: {
    args: { space: 'Handbook', number: 4 },
    result: { result: 'unchanged', revision: 'r-3' },
  },
  mergeChangeRequest: {
    args: { space: 'Handbook', number: 4 },
    result: {
      result: 'conflicts',
      pages: [{ pageId: 'p-1', title: 'Setup', path: 'guides/setup' }],
    },
  },
  exportChangeRequestPdf: {
    args: { space: 'Handbook', number: 4, pageId: null, file: null },
    result: { file: '/home/ada/Downloads/Handbook #4.pdf', bytes: 2048 },
  },
  checkoutChangeRequest: { args: { space: 'Handbook', number: 4 }, result: checkout },
  checkouts: { args: {}, result: [checkout] },
};

const events: { [E in EventName]: QuireEvents[E] } = {
  status: snapshot,
  progress: { phase: 'fetching', space: 's-1', done: 1, total: 3 },
  problems: snapshot.problems,
  conflicts: [conflict],
  activity: entry,
  run,
  notification: {
    kind: 'reply',
    spaceId: 's-1',
    number: 4,
    title: 'Bo replied on #4 Fix the install guide',
    body: 'Done.',
  },
  reviewChanged: { spaceId: 's-1', number: null },
};

const syncErrors: { [K in SyncErrorKind]: Extract<SyncError, { kind: K }> } = {
  offline: { kind: 'offline', message: 'm', status: null },
  'token-rejected': { kind: 'token-rejected', message: 'm' },
  forbidden: { kind: 'forbidden', message: 'm' },
  'rate-limited': { kind: 'rate-limited', message: 'm', retryAfterMs: 1000 },
  'server-error': { kind: 'server-error', message: 'm', status: 500 },
  'not-found': { kind: 'not-found', message: 'm' },
  protocol: { kind: 'protocol', message: 'm' },
  'disk-full': { kind: 'disk-full', message: 'm', path: null },
  'folder-missing': { kind: 'folder-missing', message: 'm', path: '/m' },
  'local-io': { kind: 'local-io', message: 'm', code: 'EACCES', path: '/m/a.md' },
  'invalid-file': { kind: 'invalid-file', message: 'm', path: '/m/a.md' },
  unexpected: { kind: 'unexpected', message: 'm' },
};

const commandErrors: { [K in CommandErrorKind]: Extract<CommandError, { kind: K }> } = {
  'invalid-argument': { kind: 'invalid-argument', message: 'm', field: 'server' },
  'not-logged-in': { kind: 'not-logged-in', message: 'm' },
  'logged-out': { kind: 'logged-out', message: 'm', server: 'https://x.test' },
  'other-connection': { kind: 'other-connection', message: 'm', server: 'https://x', folder: '/' },
  'token-rejected': { kind: 'token-rejected', message: 'm' },
  forbidden: { kind: 'forbidden', message: 'm' },
  offline: { kind: 'offline', message: 'm' },
  'not-a-quire-server': { kind: 'not-a-quire-server', message: 'm' },
  'folder-unusable': { kind: 'folder-unusable', message: 'm', folder: '/m' },
  'folder-missing': { kind: 'folder-missing', message: 'm', folder: '/m' },
  'unknown-space': { kind: 'unknown-space', message: 'm', spaceId: 's-9' },
  'unknown-conflict': { kind: 'unknown-conflict', message: 'm', id: 9 },
  'unknown-refused-change': { kind: 'unknown-refused-change', message: 'm', id: 9 },
  'unknown-change-request': {
    kind: 'unknown-change-request',
    message: 'm',
    space: 'Handbook',
    number: 4,
  },
  unavailable: { kind: 'unavailable', message: 'm', command: 'startDemo' },
  'unknown-comment': { kind: 'unknown-comment', message: 'm', commentId: 'c-9' },
  refused: { kind: 'refused', message: 'm', status: 409 },
  busy: { kind: 'busy', message: 'm', runner: null },
  'sync-failed': { kind: 'sync-failed', message: 'm', error: syncErrors.offline },
  unexpected: { kind: 'unexpected', message: 'm' },
};

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('the contract is plain data', () => {
  it.each(COMMAND_NAMES)('command %s: argument, result and outcomes', (name) => {
    const { args, result } = commands[name];
    expect(roundTrip(args)).toStrictEqual(args);
    expect(roundTrip(result)).toStrictEqual(result);
    const ok: CommandOutcome<typeof name> = { ok: true, result };
    const failed: CommandOutcome<typeof name> = { ok: false, error: commandErrors.busy };
    expect(roundTrip(ok)).toStrictEqual(ok);
    expect(roundTrip(failed)).toStrictEqual(failed);
  });

  it.each(EVENT_NAMES)('event %s', (name) => {
    expect(roundTrip(events[name])).toStrictEqual(events[name]);
  });

  it('every command error and sync error kind', () => {
    for (const error of [...Object.values(commandErrors), ...Object.values(syncErrors)]) {
      expect(roundTrip(error)).toStrictEqual(error);
    }
  });

  it('lists every command and event once', () => {
    expect(new Set(COMMAND_NAMES).size).toBe(Object.keys(commands).length);
    expect(new Set(EVENT_NAMES).size).toBe(Object.keys(events).length);
  });
});
