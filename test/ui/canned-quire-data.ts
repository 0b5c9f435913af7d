import type { ActivityEntry } from '../../src/shared/contract/activity';
import type { CommandError } from '../../src/shared/contract/command-error';
import type { ConflictListing, ConflictVersions } from '../../src/shared/contract/conflicts';
import type { ConnectionInfo, QuireSettings } from '../../src/shared/contract/connection';
import type { RefusedChangeListing } from '../../src/shared/contract/local-changes';
import type { CommandName, CommandResult } from '../../src/shared/contract/quire-commands';
import type { SpaceStatus } from '../../src/shared/contract/spaces';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';

/** What the fake bridge answers: a result or an error per command. */
export interface CannedBridge {
  results: { [K in CommandName]?: CommandResult<K> };
  errors: { [K in CommandName]?: CommandError };
}

/** Server text: plain words, or (for the XSS run) a payload in its place. */
export type Text = (plain: string) => string;

/** Times relative to now, so the screens read like a live session ("20 minutes ago"). */
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const AT = ago(20);

function spaces(t: Text): SpaceStatus[] {
  const space = (id: string, title: string, org: string, patch: Partial<SpaceStatus> = {}) => ({
    id,
    title: t(title),
    organization: t(org),
    folder: t(`${org}/${title}`),
    enabled: true,
    state: 'synced' as const,
    revision: 'r-12',
    remoteRevision: 'r-12',
    pages: 42,
    lastSync: AT,
    errors: [],
    ...patch,
  });
  return [
    space('s1', 'Handbook', 'Acme'),
    space('s2', 'API reference', 'Acme', { state: 'outdated', remoteRevision: 'r-13' }),
    space('s3', 'Archive', 'Acme', {
      enabled: false,
      state: 'disabled',
      revision: null,
      pages: 0,
      lastSync: null,
    }),
    space('s4', 'Runbooks', 'Ops team', {
      state: 'error',
      errors: [t('403: this token may not read the space')],
    }),
  ];
}

function conflict(t: Text): ConflictListing {
  return {
    id: 1,
    spaceId: 's1',
    spaceTitle: t('Handbook'),
    pageId: 'p1',
    pageTitle: t('Onboarding'),
    path: t('Handbook/onboarding.md'),
    file: '/home/me/Quire/Acme/Handbook/onboarding.md',
    kind: 'content',
    message: t('Changed here and on the server in the same lines.'),
    createdAt: AT,
  };
}

function versions(t: Text): ConflictVersions {
  return {
    conflict: conflict(t),
    base: `# Onboarding\n\nWelcome to the team.\n${t('Read the handbook first.')}\nAsk questions.\n`,
    mine: `# Onboarding\n\nWelcome to the whole team.\n${t('Read the handbook first.')}\nAsk many questions.\n`,
    theirs: `# Onboarding\n\nWelcome aboard.\n${t('Read the handbook first.')}\nAsk questions.\nSee you soon.\n`,
    binary: false,
  };
}

function status(t: Text, spaceList: SpaceStatus[]): SyncStatusSnapshot {
  return {
    state: 'conflicts',
    pending: 3,
    lastSync: AT,
    paused: false,
    pausedUntil: null,
    conflicts: 1,
    error: null,
    tokenRejected: false,
    spaces: spaceList.map((s) => ({
      id: s.id,
      title: s.title,
      folder: s.folder,
      enabled: s.enabled,
      state: s.state,
      pending: 1,
      conflicts: s.id === 's1' ? 1 : 0,
      lastSync: s.lastSync,
      errors: [...s.errors],
    })),
    problems: [
      {
        path: t('Handbook'),
        message: t('The next push would delete 30 of 42 pages.'),
        spaceId: 's1',
        kind: 'push-blocked',
      },
      {
        path: t('Handbook/tools.md'),
        message: t('The server refused the change: title too long.'),
        spaceId: 's1',
        kind: 'push-failed',
      },
      {
        path: t('Runbooks/deploy.md'),
        message: t('Invalid frontmatter: line 3'),
        spaceId: 's4',
        kind: 'not-pushed',
      },
    ],
  };
}

function refused(t: Text): RefusedChangeListing[] {
  return [
    {
      id: 5,
      spaceId: 's1',
      kind: 'update_page',
      path: t('Handbook/tools.md'),
      reason: t('title too long'),
      holds: [],
    },
  ];
}

function activity(t: Text): ActivityEntry[] {
  const entry = (
    id: number,
    at: string,
    kind: ActivityEntry['kind'],
    summary: string,
    files: string[],
  ) => ({
    id,
    at,
    kind,
    spaceId: 's1',
    spaceTitle: t('Handbook'),
    summary: t(summary),
    files: files.map(t),
  });
  return [
    entry(3, ago(10), 'pushed', 'Pushed 2 changes to change request #4', [
      'Handbook/a.md',
      'Handbook/b.md',
    ]),
    entry(2, ago(30), 'merged', 'Merged remote and local edits of onboarding.md', [
      'Handbook/onboarding.md',
    ]),
    entry(1, ago(120), 'pulled', 'Pulled revision r-12: 3 files written', []),
  ];
}

function settings(t: Text): QuireSettings {
  return {
    server: t('https://docs.example.com'),
    folder: t('/home/me/Quire'),
    changeRequestSubject: null,
    defaultChangeRequestSubject: t('Edits from my laptop'),
    ignorePatterns: ['drafts/', t('*.bak')],
    syncIntervalMs: 300_000,
  };
}

const LOGGED_IN: ConnectionInfo = {
  state: 'logged-in',
  server: 'https://docs.example.com',
  folder: '/home/me/Quire',
  user: { id: 'u1', displayName: 'Ada' },
  runner: null,
};

/** A workspace with a bit of everything; every server text goes through `t`. */
export function fullWorkspace(t: Text = (s) => s): CannedBridge {
  const spaceList = spaces(t);
  return {
    results: {
      appInfo: { name: 'Quire', version: '0.1.0' },
      connection: { ...LOGGED_IN, plainTextSecrets: true },
      status: status(t, spaceList),
      spaceStatuses: spaceList,
      listSpaces: { organizations: [], spaces: [], errors: [t('Ops team: 403 forbidden')] },
      setSpaceEnabled: null,
      conflicts: [conflict(t)],
      conflictVersions: versions(t),
      resolveConflict: conflict(t),
      refusedChanges: refused(t),
      retryRefused: { count: 1 },
      dropRefused: refused(t)[0],
      confirmDeletes: null,
      activity: activity(t),
      settings: settings(t),
      updateSettings: settings(t),
      syncNow: { kind: 'requested' },
      pause: { paused: true, until: null },
      resume: { paused: false, until: null },
      unsyncedEdits: [],
      // The desktop app's host: every extra there, and no keyring on this Linux.
      capabilities: { openPath: true, startDemo: true, desktopSettings: true },
      openPath: null,
      desktopSettings: { launchAtLogin: false, notifications: true },
      updateDesktopSettings: { launchAtLogin: false, notifications: false },
    },
    errors: {},
  };
}

/** Signed in, nothing listed yet: every screen's empty state. */
export function emptyWorkspace(): CannedBridge {
  const full = fullWorkspace();
  return {
    results: {
      ...full.results,
      status: {
        ...(full.results.status as SyncStatusSnapshot),
        state: 'idle',
        pending: 0,
        conflicts: 0,
        problems: [],
        spaces: [],
      },
      spaceStatuses: [],
      conflicts: [],
      refusedChanges: [],
      activity: [],
    },
    errors: {},
  };
}

/** Every read fails: every screen's error state. */
export function failingWorkspace(): CannedBridge {
  const failure: CommandError = { kind: 'unexpected', message: 'The cache could not be opened.' };
  return {
    results: { connection: LOGGED_IN, status: emptyWorkspace().results.status },
    errors: {
      spaceStatuses: failure,
      conflicts: failure,
      conflictVersions: { kind: 'unknown-conflict', message: 'No open conflict 1.', id: 1 },
      refusedChanges: failure,
      activity: failure,
      settings: failure,
    },
  };
}

/** First run: nothing configured; the login fails with the token rejected. */
export function firstRun(): CannedBridge {
  return {
    results: {
      connection: { state: 'new' },
      checkServerUrl: { origin: 'http://192.168.1.20:8080', cleartext: true },
      capabilities: { openPath: true, startDemo: true, desktopSettings: true },
    },
    errors: {
      login: { kind: 'token-rejected', message: 'The server answered 401.' },
      startDemo: {
        kind: 'folder-unusable',
        message: '/proc/demo cannot be created',
        folder: '/proc/demo',
      },
    },
  };
}
