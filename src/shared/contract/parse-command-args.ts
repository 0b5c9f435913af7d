import type { CommandError } from './command-error';
import type { CommandArgs, CommandName } from './quire-commands';

/**
 * Checks an untrusted value (an IPC message, an HTTP body) against a command's arguments before
 * the application layer sees it: the exact keys, their types, and bounded sizes. A refusal is an
 * `invalid-argument` naming the field, so a front end bug or a hostile page gets a clear answer
 * and reaches nothing.
 */
export function parseCommandArgs<K extends CommandName>(
  name: K,
  value: unknown,
): { ok: true; args: CommandArgs<K> } | { ok: false; error: CommandError } {
  try {
    const record = objectOf(value, 'args');
    return { ok: true, args: ARG_PARSERS[name](record) as CommandArgs<K> };
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    return {
      ok: false,
      error: { kind: 'invalid-argument', message: error.message, field: error.field },
    };
  }
}

/** Longest text an argument may carry; merged conflict text may be a whole page. */
const MAX_TEXT = 4096;
const MAX_PAGE_TEXT = 2_000_000;
const MIN_SYNC_INTERVAL_MS = 1000;
const MAX_SYNC_INTERVAL_MS = 24 * 60 * 60 * 1000;
const MAX_PATTERNS = 100;
/** The server's limits: a subject of 100 characters, a comment body of 64 KiB. */
const MAX_SUBJECT = 100;
const MAX_COMMENT = 64 * 1024;
const MAX_ID = 128;
const MAX_PEOPLE = 50;
const MAX_PATTERN = 256;

class ArgumentError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

type Fields = Readonly<Record<string, unknown>>;

const ARG_PARSERS: { [K in CommandName]: (args: Fields) => CommandArgs<K> } = {
  appInfo: none,
  checkServerUrl: (a) => only(a, ['server']) && { server: text(a, 'server') },
  login: (a) =>
    only(a, ['server', 'token', 'folder']) && {
      server: text(a, 'server'),
      token: text(a, 'token'),
      folder: text(a, 'folder'),
    },
  logout: none,
  connection: none,
  listSpaces: none,
  spaceStatuses: none,
  setSpaceEnabled: (a) =>
    only(a, ['spaceId', 'enabled']) && {
      spaceId: text(a, 'spaceId'),
      enabled: flag(a, 'enabled'),
    },
  syncNow: none,
  pause: (a) => only(a, ['until']) && { until: isoTimeOrNull(a, 'until') },
  resume: none,
  confirmDeletes: (a) => only(a, ['spaceId']) && { spaceId: text(a, 'spaceId') },
  conflicts: none,
  conflictVersions: (a) => only(a, ['id']) && { id: index(a, 'id') },
  resolveConflict: (a) =>
    only(a, ['id', 'choice']) && { id: index(a, 'id'), choice: resolution(a['choice']) },
  refusedChanges: none,
  retryRefused: (a) => only(a, ['id']) && { id: a['id'] === null ? null : index(a, 'id') },
  dropRefused: (a) => only(a, ['id']) && { id: index(a, 'id') },
  unsyncedEdits: none,
  status: none,
  activity: (a) => only(a, ['limit']) && { limit: a['limit'] === null ? null : index(a, 'limit') },
  settings: none,
  updateSettings: (a) => {
    only(a, ['changeRequestSubject', 'syncIntervalMs', 'ignorePatterns']);
    const update: {
      changeRequestSubject?: string | null;
      syncIntervalMs?: number;
      ignorePatterns?: string[];
    } = {};
    if (a['changeRequestSubject'] !== undefined) {
      update.changeRequestSubject =
        a['changeRequestSubject'] === null ? null : text(a, 'changeRequestSubject');
    }
    if (a['syncIntervalMs'] !== undefined) update.syncIntervalMs = interval(a, 'syncIntervalMs');
    if (a['ignorePatterns'] !== undefined) update.ignorePatterns = patterns(a, 'ignorePatterns');
    return update;
  },
  moveFolder: (a) => only(a, ['folder']) && { folder: text(a, 'folder') },
  capabilities: none,
  openPath: (a) => {
    if (a['spaceId'] !== undefined) return only(a, ['spaceId']) && { spaceId: text(a, 'spaceId') };
    if (a['conflictId'] !== undefined) {
      return only(a, ['conflictId']) && { conflictId: index(a, 'conflictId') };
    }
    only(a, ['path']);
    return { path: relativePath(a, 'path') };
  },
  startDemo: (a) => only(a, ['folder']) && { folder: text(a, 'folder') },
  desktopSettings: none,
  updateDesktopSettings: (a) => {
    only(a, ['launchAtLogin', 'notifications']);
    const update: { launchAtLogin?: boolean; notifications?: boolean } = {};
    if (a['launchAtLogin'] !== undefined) update.launchAtLogin = flag(a, 'launchAtLogin');
    if (a['notifications'] !== undefined) update.notifications = flag(a, 'notifications');
    return update;
  },
  changeRequests: none,
  changeRequest: changeRequestRef,
  changeRequestDiff: changeRequestRef,
  pinChangeRequest: (a) => ({ ...changeRequestRef(a, ['pinned']), pinned: flag(a, 'pinned') }),
  comments: (a) => ({ ...commentsRef(a, ['pageId']), pageId: idOrNull(a, 'pageId') }),
  postComment: (a) => ({
    ...commentsRef(a, ['pageId', 'body']),
    pageId: idOrNull(a, 'pageId'),
    body: commentBody(a),
  }),
  replyToComment: (a) => ({
    ...commentsRef(a, ['commentId', 'body']),
    commentId: id(a, 'commentId'),
    body: commentBody(a),
  }),
  editComment: (a) => ({ ...commentItemRef(a, ['body']), body: commentBody(a) }),
  deleteComment: (a) => commentItemRef(a),
  reactToComment: (a) => ({
    ...commentItemRef(a, ['emoji', 'add']),
    emoji: emoji(a, 'emoji'),
    add: flag(a, 'add'),
  }),
  setCommentResolved: (a) => ({
    ...commentsRef(a, ['commentId', 'resolved']),
    commentId: id(a, 'commentId'),
    resolved: flag(a, 'resolved'),
  }),
  setChangeRequestSubject: (a) => {
    const ref = changeRequestRef(a, ['subject']);
    const subject = text(a, 'subject', MAX_SUBJECT).trim();
    if (subject === '') throw new ArgumentError('subject', 'subject must not be empty');
    return { ...ref, subject };
  },
  setChangeRequestStatus: (a) => {
    const ref = changeRequestRef(a, ['status']);
    const status = a['status'];
    if (status !== 'draft' && status !== 'open' && status !== 'archived') {
      throw new ArgumentError('status', 'status must be "draft", "open" or "archived"');
    }
    return { ...ref, status };
  },
  setReviewers: (a) => ({
    ...changeRequestRef(a, ['add', 'remove']),
    add: people(a, 'add'),
    remove: people(a, 'remove'),
  }),
  reviewChangeRequest: (a) => {
    const ref = changeRequestRef(a, ['verdict', 'comment']);
    const verdict = a['verdict'];
    if (verdict !== 'approved' && verdict !== 'changes-requested') {
      throw new ArgumentError('verdict', 'verdict must be "approved" or "changes-requested"');
    }
    const comment = a['comment'] === null ? null : text(a, 'comment', MAX_COMMENT);
    return { ...ref, verdict, comment };
  },
  updateChangeRequest: (a) => changeRequestRef(a),
  mergeChangeRequest: (a) => changeRequestRef(a),
  exportChangeRequestPdf: (a) => ({
    ...changeRequestRef(a, ['pageId', 'file']),
    pageId: idOrNull(a, 'pageId'),
    file: a['file'] === null ? null : text(a, 'file'),
  }),
  checkoutChangeRequest: (a) => changeRequestRef(a),
  checkouts: none,
};

/** A comment's Markdown: up to the server's limit, not blank. */
function commentBody(a: Fields): string {
  const body = text(a, 'body', MAX_COMMENT);
  if (body.trim() === '') throw new ArgumentError('body', 'body must not be empty');
  return body;
}

/** A change request's comments (a number) or the space's own (`number: null`). */
function commentsRef(
  a: Fields,
  extra: readonly string[] = [],
): { space: string; number: number | null } {
  if (a['number'] === null) {
    only(a, ['space', 'number', ...extra]);
    const space = text(a, 'space');
    if (space === '') throw new ArgumentError('space', 'space must not be empty');
    return { space, number: null };
  }
  return changeRequestRef(a, extra);
}

function commentItemRef(
  a: Fields,
  extra: readonly string[] = [],
): { space: string; number: number | null; commentId: string; replyId: string | null } {
  return {
    ...commentsRef(a, ['commentId', 'replyId', ...extra]),
    commentId: id(a, 'commentId'),
    replyId: idOrNull(a, 'replyId'),
  };
}

/** An id the server or the outbox gave: short, one token. */
function id(a: Fields, field: string): string {
  const value = text(a, field, MAX_ID);
  if (!/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new ArgumentError(field, `${field} must be an id (letters, digits, - and _)`);
  }
  return value;
}

function idOrNull(a: Fields, field: string): string | null {
  return a[field] === null ? null : id(a, field);
}

/** One emoji (or a short emoji name): a few characters, no spaces or controls. */
function emoji(a: Fields, field: string): string {
  const value = text(a, field, 32);
  if (value === '' || /[\s\p{Cc}]/u.test(value)) {
    throw new ArgumentError(field, `${field} must be one emoji`);
  }
  return value;
}

/** Up to MAX_PEOPLE user ids, emails or names, each one line. */
function people(a: Fields, field: string): string[] {
  const value = a[field];
  if (!Array.isArray(value) || value.length > MAX_PEOPLE) {
    throw new ArgumentError(field, `${field} must be a list of at most ${MAX_PEOPLE} people`);
  }
  return value.map((item: unknown, i) => {
    if (
      typeof item !== 'string' ||
      item.trim() === '' ||
      item.length > 256 ||
      /[\0\r\n]/.test(item)
    ) {
      throw new ArgumentError(`${field}.${i}`, 'a reviewer is a user id, an email or a name');
    }
    return item.trim();
  });
}

/** A space (id or title, non-empty) and a change request number (1 or more). */
function changeRequestRef(
  a: Fields,
  extra: readonly string[] = [],
): { space: string; number: number } {
  only(a, ['space', 'number', ...extra]);
  const space = text(a, 'space');
  if (space === '') throw new ArgumentError('space', 'space must not be empty');
  const number = index(a, 'number');
  if (number < 1) throw new ArgumentError('number', 'number must be 1 or more');
  return { space, number };
}

function none(args: Fields): Record<string, never> {
  only(args, []);
  return {};
}

/** Refuses keys the command does not define: nothing is silently ignored. */
function only(args: Fields, keys: readonly string[]): true {
  for (const key of Object.keys(args)) {
    if (!keys.includes(key)) throw new ArgumentError(key, `unknown argument "${key}"`);
  }
  return true;
}

function objectOf(value: unknown, field: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ArgumentError(field, `${field} must be an object`);
  }
  return value as Fields;
}

function text(args: Fields, field: string, max = MAX_TEXT): string {
  const value = args[field];
  if (typeof value !== 'string') throw new ArgumentError(field, `${field} must be a string`);
  if (value.length > max) {
    throw new ArgumentError(field, `${field} is longer than ${max} characters`);
  }
  return value;
}

function flag(args: Fields, field: string): boolean {
  const value = args[field];
  if (typeof value !== 'boolean') throw new ArgumentError(field, `${field} must be true or false`);
  return value;
}

function index(args: Fields, field: string): number {
  const value = args[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ArgumentError(field, `${field} must be a whole number ≥ 0`);
  }
  return value;
}

function interval(args: Fields, field: string): number {
  const value = index(args, field);
  if (value < MIN_SYNC_INTERVAL_MS || value > MAX_SYNC_INTERVAL_MS) {
    throw new ArgumentError(field, `${field} must be between 1 s and 24 h, in milliseconds`);
  }
  return value;
}

/** Up to MAX_PATTERNS one-line texts (the application layer checks each one's syntax). */
function patterns(args: Fields, field: string): string[] {
  const value = args[field];
  if (!Array.isArray(value) || value.length > MAX_PATTERNS) {
    throw new ArgumentError(field, `${field} must be a list of at most ${MAX_PATTERNS} patterns`);
  }
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string' || item.length > MAX_PATTERN || /[\0\r\n]/.test(item)) {
      throw new ArgumentError(
        `${field}.${i}`,
        `a pattern is one line of at most ${MAX_PATTERN} characters`,
      );
    }
    return item;
  });
}

function isoTimeOrNull(args: Fields, field: string): string | null {
  if (args[field] === null) return null;
  const value = text(args, field, 64);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ArgumentError(field, `${field} must be an ISO date and time, or null`);
  }
  return value;
}

/**
 * A path inside the mirror folder, `/`-separated: no absolute path, drive, `..` or empty segment,
 * so it cannot name anything outside (the application layer checks again once resolved).
 */
function relativePath(args: Fields, field: string): string {
  const value = text(args, field);
  const segments = value.split(/[\\/]/);
  const outside =
    value === '' ||
    value.includes('\0') ||
    /^([a-zA-Z]:|[\\/])/.test(value) ||
    segments.some((segment) => segment === '..' || segment === '');
  if (outside) {
    throw new ArgumentError(field, `${field} must be a path inside the mirror folder`);
  }
  return value;
}

function resolution(value: unknown): CommandArgs<'resolveConflict'>['choice'] {
  const choice = objectOf(value, 'choice');
  const mode = choice['mode'];
  if (mode === 'mine' || mode === 'theirs') {
    only(choice, ['mode']);
    return { mode };
  }
  if (mode === 'merged') {
    only(choice, ['mode', 'text']);
    return { mode, text: text(choice, 'text', MAX_PAGE_TEXT) };
  }
  throw new ArgumentError('choice.mode', 'choice.mode must be "mine", "theirs" or "merged"');
}
