import { hostname } from 'node:os';
import type { ActivityEntry } from '../../shared/contract/activity';
import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestRef,
  ChangeRequestSummary,
} from '../../shared/contract/change-requests';
import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import type {
  ConflictListing,
  ConflictResolutionChoice,
  ConflictVersions,
} from '../../shared/contract/conflicts';
import type {
  ConnectionInfo,
  LoginRequest,
  LoginResult,
  LogoutResult,
  QuireSettings,
  ServerUrlCheck,
  SettingsUpdate,
} from '../../shared/contract/connection';
import type {
  DesktopSettings,
  DesktopSettingsUpdate,
  HostCapabilities,
  OpenPathTarget,
} from '../../shared/contract/host';
import type {
  RefusedChangeListing,
  UnsyncedEditListing,
} from '../../shared/contract/local-changes';
import type {
  AppInfo,
  CommandArgs,
  CommandName,
  NoArgs,
  QuireCommandHandlers,
} from '../../shared/contract/quire-commands';
import type { EventName, QuireEventListener } from '../../shared/contract/quire-events';
import type {
  PauseState,
  SpaceList,
  SpaceStatus,
  SyncNowResult,
} from '../../shared/contract/spaces';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import { readQuireConfig, writeQuireConfig, type QuireConfig } from '../config/quire-home';
import { DrainLock, drainLockPath } from '../outbox/drain-lock';
import { serverTokenKey } from '../secrets/file-secret-store';
import { DEFAULT_PULL_INTERVAL_MS, TOKEN_REJECTED_MESSAGE } from '../sync/sync-watcher';
import { AppEvents } from './app-events';
import type { AppServices, EngineSession, WatchControl } from './app-services';
import { EngineSessions, requireConfig } from './engine-sessions';
import { commandFailure, type CommandSubject } from './command-error-of';
import type { HostPorts } from './host-ports';
import { checkServerUrl, login } from './login';
import { resolveOpenPathTarget } from './open-path-target';
import { moveMirrorFolder } from './move-mirror-folder';
import { settingsUpdate, watchSettingsChanged } from './settings-update';
import { WatchRestarts } from './watch-restarts';
import { CheckoutCommands } from './review/checkout-commands';
import { CommentCommands } from './review/comment-commands';
import { ReviewActionCommands } from './review/review-action-commands';
import type { ReviewContext } from './review/review-context';

export interface QuireAppOptions {
  readonly services: AppServices;
  readonly appInfo: AppInfo;
  /** The environment, for the default home (a login warns when another home mirrors the folder). */
  readonly env: NodeJS.ProcessEnv;
  /** How this process names itself to others while it syncs (the drain lock's holder). */
  readonly runnerNames?: { readonly sync: string; readonly watch: string };
  /** Every token the app reads or is given, so a front end can keep it out of what it prints. */
  readonly onSecret?: (secret: string) => void;
  /** What the hosting process offers beyond the engine (opener, demo, desktop settings). */
  readonly host?: HostPorts;
}

export interface AppWatchOptions {
  readonly signal: AbortSignal;
  /** Default: the settings' interval. */
  readonly intervalMs?: number;
  /** Once this process holds the drain lock, before the first run. */
  readonly onLocked?: (config: QuireConfig) => void;
}

/**
 * The application layer: every command of the contract (src/shared/contract/quire-commands.ts) on
 * top of the engine, its watcher, the drain lock and the secret store, and the events front ends
 * listen to. The CLI, the desktop app and `quire ui` are presenters over one of these. Failures
 * are thrown as CommandFailedError, whose `error` is the contract's typed CommandError.
 */
export class QuireApp implements QuireCommandHandlers {
  private readonly events = new AppEvents();
  private readonly services: AppServices;
  private readonly sessions: EngineSessions;
  private watchControl: WatchControl | undefined;
  /** This process's watcher, started again for new settings or stopped for a folder move. */
  private readonly restarts = new WatchRestarts();
  /**
   * The watcher stopped on a rejected token: the status says so until the next login (the
   * watcher's runtime record, which said it, is cleared when it stops).
   */
  private tokenRejected = false;
  /** What was last announced, so an unchanged list is not sent again. */
  private announced: { conflicts?: string; problems?: string } = {};
  /** The review commands (src/main/app/review/): comments, actions, checkouts. */
  private readonly review: {
    comments: CommentCommands;
    actions: ReviewActionCommands;
    checkouts: CheckoutCommands;
  };

  constructor(private readonly options: QuireAppOptions) {
    this.services = options.services;
    this.sessions = new EngineSessions({
      services: options.services,
      ...(options.onSecret ? { onSecret: options.onSecret } : {}),
      onProgress: (progress) => this.events.emit('progress', progress),
      onActivity: (entry) => this.events.emit('activity', entry),
      onNotification: (notification) => this.events.emit('notification', notification),
      onReviewChanged: (change) => this.events.emit('reviewChanged', change),
    });
    const context: ReviewContext = {
      home: options.services.home,
      withSession: (needsToken, task) =>
        this.command(async () => task(await this.sessions.open(needsToken, false))),
      emit: (event, payload) => this.events.emit(event, payload),
      requestSync: () => this.watchControl?.syncNow(),
    };
    this.review = {
      comments: new CommentCommands(context),
      actions: new ReviewActionCommands(context),
      checkouts: new CheckoutCommands(context),
    };
  }

  on<E extends EventName>(event: E, listener: QuireEventListener<E>): () => void {
    return this.events.on(event, listener);
  }

  async appInfo(_args: NoArgs): Promise<AppInfo> {
    return this.options.appInfo;
  }

  async checkServerUrl(args: { server: string }): Promise<ServerUrlCheck> {
    return this.command(async () => checkServerUrl(args.server));
  }

  async login(request: LoginRequest): Promise<LoginResult> {
    return this.command(async () => {
      this.options.onSecret?.(request.token);
      if (this.watchControl === undefined) await this.sessions.close();
      const connect = (server: string, token: string) => {
        const remote = this.services.connect(server, token, { quick: true });
        this.sessions.rememberLoginRemote(server, token, remote);
        return remote;
      };
      const result = await login(
        { services: this.services, env: this.options.env, connect },
        request,
      );
      this.tokenRejected = false;
      return result;
    });
  }

  async logout(_args: NoArgs): Promise<LogoutResult> {
    return this.command(async () => {
      const config = await readQuireConfig(this.services.home);
      if (config === undefined) return { loggedOut: false };
      await this.services.secrets.delete(serverTokenKey(config.server));
      this.sessions.forgetLoginRemote();
      if (this.watchControl === undefined) await this.sessions.close();
      return { loggedOut: true, server: config.server, folder: config.folder };
    });
  }

  /**
   * The saved server and its token, for `quire import` (which streams a folder to the server
   * itself rather than through the sync engine's JSON client).
   */
  async importTarget(): Promise<{ server: string; token: string }> {
    const config = await requireConfig(this.services.home);
    const token = await this.services.secrets.get(serverTokenKey(config.server));
    if (token === undefined) {
      throw new CommandFailedError({
        kind: 'logged-out',
        server: config.server,
        message: `not logged in to ${config.server}`,
      });
    }
    this.options.onSecret?.(token);
    return { server: config.server, token };
  }

  async connection(_args: NoArgs): Promise<ConnectionInfo> {
    return this.command(async () => {
      const config = await readQuireConfig(this.services.home);
      if (config === undefined) return { state: 'new', ...this.plainTextSecrets() };
      const token = await this.services.secrets.get(serverTokenKey(config.server));
      if (token !== undefined) this.options.onSecret?.(token);
      const holder = await DrainLock.holder(drainLockPath(this.services.home.root));
      return {
        ...this.plainTextSecrets(),
        state: token === undefined ? 'logged-out' : 'logged-in',
        server: config.server,
        folder: config.folder,
        user: config.user,
        runner:
          holder === undefined
            ? null
            : {
                pid: holder.pid,
                host: holder.host,
                command: holder.command,
                since: holder.startedAt,
              },
      };
    });
  }

  async listSpaces(_args: NoArgs): Promise<SpaceList> {
    return this.withEngine(true, (engine) => engine.refreshSpaces());
  }

  async spaceStatuses(_args: NoArgs): Promise<readonly SpaceStatus[]> {
    return this.withEngine(false, (engine) => engine.status());
  }

  async setSpaceEnabled(args: { spaceId: string; enabled: boolean }): Promise<null> {
    return this.withEngine(false, async (engine) => {
      await engine.setSpaceEnabled(args.spaceId, args.enabled);
      await this.announce();
      return null;
    });
  }

  /** One sync (push, then pull) now; while a watcher runs in this process, asks it instead. */
  async syncNow(_args: NoArgs): Promise<SyncNowResult> {
    const control = this.watchControl;
    if (control !== undefined) {
      control.syncNow();
      return { kind: 'requested' };
    }
    return this.withEngine(true, (engine) =>
      this.holdingDrainLock(this.runnerNames().sync, async () => {
        const result = await engine.syncOnce();
        const pause = pauseStateOf(await engine.pauseState());
        await this.announce();
        return { kind: 'ran', ...result, pause };
      }),
    );
  }

  async pause(args: { until: string | null }): Promise<PauseState> {
    const until = args.until === null ? undefined : new Date(args.until);
    if (until !== undefined && Number.isNaN(until.getTime())) {
      throw invalid('until', `pause: ${JSON.stringify(args.until)} is not a time`);
    }
    return this.withEngine(false, async (engine) => {
      await engine.pause(until);
      await this.announce();
      return pauseStateOf(await engine.pauseState());
    });
  }

  async resume(_args: NoArgs): Promise<PauseState> {
    return this.withEngine(false, async (engine) => {
      await engine.resume();
      // What waited goes out now, not at the watcher's next pull (up to 30 s later).
      this.watchControl?.syncNow();
      await this.announce();
      return pauseStateOf(await engine.pauseState());
    });
  }

  async confirmDeletes(args: { spaceId: string }): Promise<null> {
    return this.withEngine(false, async (engine) => {
      await engine.confirmDeletes(args.spaceId);
      // The confirmed deletions go out now, not at the watcher's next pull.
      this.watchControl?.syncNow();
      return null;
    });
  }

  async conflicts(_args: NoArgs): Promise<readonly ConflictListing[]> {
    return this.withEngine(false, (engine) => engine.conflicts());
  }

  async conflictVersions(args: { id: number }): Promise<ConflictVersions> {
    return this.withEngine(false, (engine) => engine.conflictVersions(args.id), {
      conflictId: args.id,
    });
  }

  async resolveConflict(args: {
    id: number;
    choice: ConflictResolutionChoice;
  }): Promise<ConflictListing> {
    return this.withEngine(
      false,
      async (engine) => {
        const resolved = await engine.resolveConflict(args.id, args.choice);
        await this.announce();
        return resolved;
      },
      { conflictId: args.id },
    );
  }

  async refusedChanges(_args: NoArgs): Promise<readonly RefusedChangeListing[]> {
    return this.withEngine(false, (engine) => engine.refusedChanges());
  }

  async retryRefused(args: { id: number | null }): Promise<{ count: number }> {
    const subject = args.id === null ? {} : { refusedId: args.id };
    return this.withEngine(
      false,
      async (engine) => {
        const count = await engine.retryRefused(args.id ?? undefined);
        // Sent again now, not at the watcher's next pull.
        if (count > 0) this.watchControl?.syncNow();
        await this.announce();
        return { count };
      },
      subject,
    );
  }

  async dropRefused(args: { id: number }): Promise<RefusedChangeListing> {
    return this.withEngine(
      false,
      async (engine) => {
        const dropped = await engine.dropRefused(args.id);
        await this.announce();
        return dropped;
      },
      { refusedId: args.id },
    );
  }

  async unsyncedEdits(_args: NoArgs): Promise<readonly UnsyncedEditListing[]> {
    return this.withEngine(false, (engine) => engine.unsyncedEdits());
  }

  async status(_args: NoArgs): Promise<SyncStatusSnapshot> {
    const status = await this.withEngine(false, (engine) => engine.syncStatus());
    return this.tokenRejected ? withTokenRejected(status) : status;
  }

  async activity(args: { limit: number | null }): Promise<readonly ActivityEntry[]> {
    return this.withEngine(false, (engine) => engine.activity(args.limit ?? undefined));
  }

  async settings(_args: NoArgs): Promise<QuireSettings> {
    return this.command(async () => this.settingsOf(await requireConfig(this.services.home)));
  }

  async updateSettings(update: SettingsUpdate): Promise<QuireSettings> {
    return this.command(async () => {
      const previous = await requireConfig(this.services.home);
      const config = settingsUpdate(previous, update);
      await writeQuireConfig(this.services.home, config);
      // The engine takes its settings when it opens: the next command (or the watcher, started
      // again) opens it with these.
      if (!this.restarts.watching) await this.sessions.close();
      else if (watchSettingsChanged(previous, config)) this.restarts.reopen();
      return this.settingsOf(config);
    });
  }

  async moveFolder(args: { folder: string }): Promise<QuireSettings> {
    return this.command(async () => {
      let moved: QuireConfig | undefined;
      await this.restarts.whileStopped(() =>
        this.holdingDrainLock('moving the mirror folder', async () => {
          const config = await requireConfig(this.services.home);
          await moveMirrorFolder(config.folder, args.folder, this.services.home.root, (folder) => {
            moved = { ...config, folder };
            return writeQuireConfig(this.services.home, moved);
          });
          await this.sessions.close();
        }),
      );
      return this.settingsOf(moved!);
    });
  }

  async capabilities(_args: NoArgs): Promise<HostCapabilities> {
    const host = this.options.host ?? {};
    return {
      openPath: host.openPath !== undefined,
      startDemo: host.startDemoServer !== undefined,
      desktopSettings: host.desktopSettings !== undefined,
    };
  }

  async openPath(target: OpenPathTarget): Promise<null> {
    const open = this.hostPort('openPath', 'openPath', 'Opening files');
    return this.withEngine(
      false,
      async (engine) => {
        const config = await requireConfig(this.services.home);
        await open(await resolveOpenPathTarget(config.folder, engine, target));
        return null;
      },
      'conflictId' in target ? { conflictId: target.conflictId } : {},
    );
  }

  /** Starts the embedded demo server, logs in to it and lists (so enables) its spaces. */
  async startDemo(args: { folder: string }): Promise<LoginResult> {
    const start = this.hostPort('startDemoServer', 'startDemo', 'The demo workspace');
    return this.command(async () => {
      const demo = await start();
      const result = await this.login({
        server: demo.server,
        token: demo.token,
        folder: args.folder,
      });
      await this.listSpaces({});
      return result;
    });
  }

  async desktopSettings(_args: NoArgs): Promise<DesktopSettings> {
    const port = this.hostPort('desktopSettings', 'desktopSettings', 'Desktop settings');
    return this.command(() => port.read());
  }

  async updateDesktopSettings(update: DesktopSettingsUpdate): Promise<DesktopSettings> {
    const port = this.hostPort('desktopSettings', 'updateDesktopSettings', 'Desktop settings');
    return this.command(() => port.update(update));
  }

  /**
   * The background sync: syncs at start, then on every change and every interval, holding the
   * drain lock, until `signal` aborts. Started by a composition root (`quire sync --watch`, the
   * desktop app), not a front-end command; its progress comes as events.
   */
  async changeRequests(_args: NoArgs): Promise<readonly ChangeRequestSummary[]> {
    return this.command(async () => {
      const { engine, config } = await this.sessions.open(false, false);
      return engine.changeRequests(config.user.id);
    });
  }

  async changeRequest(ref: ChangeRequestRef): Promise<ChangeRequestDetail> {
    return this.command(async () => {
      const { engine, config } = await this.sessions.open(false, false);
      return engine.changeRequest(ref, config.user.id);
    });
  }

  async changeRequestDiff(ref: ChangeRequestRef): Promise<ChangeRequestDiff> {
    return this.withEngine(false, (engine) => engine.changeRequestDiff(ref));
  }

  async pinChangeRequest(args: ChangeRequestRef & { pinned: boolean }): Promise<null> {
    return this.withEngine(false, async (engine) => {
      await engine.pinChangeRequest({ space: args.space, number: args.number }, args.pinned);
      return null;
    });
  }

  // --- Review: each command is one method of src/main/app/review/.
  comments = (a: Args<'comments'>) => this.review.comments.comments(a);
  postComment = (a: Args<'postComment'>) => this.review.comments.postComment(a);
  replyToComment = (a: Args<'replyToComment'>) => this.review.comments.replyToComment(a);
  editComment = (a: Args<'editComment'>) => this.review.comments.editComment(a);
  deleteComment = (a: Args<'deleteComment'>) => this.review.comments.deleteComment(a);
  reactToComment = (a: Args<'reactToComment'>) => this.review.comments.reactToComment(a);
  setCommentResolved = (a: Args<'setCommentResolved'>) =>
    this.review.comments.setCommentResolved(a);
  setChangeRequestSubject = (a: Args<'setChangeRequestSubject'>) =>
    this.review.actions.setChangeRequestSubject(a);
  setChangeRequestStatus = (a: Args<'setChangeRequestStatus'>) =>
    this.review.actions.setChangeRequestStatus(a);
  setReviewers = (a: Args<'setReviewers'>) => this.review.actions.setReviewers(a);
  reviewChangeRequest = (a: Args<'reviewChangeRequest'>) =>
    this.review.actions.reviewChangeRequest(a);
  updateChangeRequest = (a: Args<'updateChangeRequest'>) =>
    this.review.actions.updateChangeRequest(a);
  mergeChangeRequest = (a: Args<'mergeChangeRequest'>) => this.review.actions.mergeChangeRequest(a);
  exportChangeRequestPdf = (a: Args<'exportChangeRequestPdf'>) =>
    this.review.actions.exportChangeRequestPdf(a);
  checkoutChangeRequest = (a: Args<'checkoutChangeRequest'>) =>
    this.review.checkouts.checkoutChangeRequest(a);
  checkouts = (a: Args<'checkouts'>) => this.review.checkouts.checkouts(a);

  async watch(options: AppWatchOptions): Promise<SyncStatusSnapshot> {
    return this.command(() =>
      this.restarts.run(
        options.signal,
        (signal) => this.watchSession(options, signal),
        // Settings the engine takes when it opens changed: the next run opens it with them.
        () => this.sessions.close(),
      ),
    );
  }

  private async watchSession(
    options: AppWatchOptions,
    signal: AbortSignal,
  ): Promise<SyncStatusSnapshot> {
    const session = await this.sessions.open(true, true);
    return this.holdingDrainLock(this.runnerNames().watch, async () => {
      options.onLocked?.(session.config);
      const intervalMs = options.intervalMs ?? session.config.syncIntervalMs;
      try {
        return await session.engine.watch({
          signal,
          ...(intervalMs !== undefined ? { intervalMs } : {}),
          onStatus: (status) => {
            if (status.tokenRejected) this.tokenRejected = true;
            this.events.emit('status', status);
            void this.announce({ status: false }).catch(() => undefined);
          },
          onRun: (run) => this.events.emit('run', run),
          onStarted: (control) => (this.watchControl = control),
        });
      } finally {
        this.watchControl = undefined;
      }
    });
  }

  /** Closes the engine (and the cache). */
  async close(): Promise<void> {
    await this.sessions.close();
  }

  private runnerNames(): { sync: string; watch: string } {
    return this.options.runnerNames ?? { sync: 'Quire app', watch: 'Quire app' };
  }

  /** A host port, or the typed refusal of a host that has none (`quire ui` has no demo). */
  private hostPort<P extends keyof HostPorts>(
    port: P,
    command: CommandName,
    what: string,
  ): NonNullable<HostPorts[P]> {
    const found = this.options.host?.[port];
    if (found !== undefined) return found as NonNullable<HostPorts[P]>;
    throw new CommandFailedError({
      kind: 'unavailable',
      command,
      message: `${what} is not available here (only in the desktop app)`,
    });
  }

  private plainTextSecrets(): { plainTextSecrets?: boolean } {
    const check = this.options.host?.plainTextSecrets;
    return check === undefined ? {} : { plainTextSecrets: check() };
  }

  private settingsOf(config: QuireConfig): QuireSettings {
    return {
      server: config.server,
      folder: config.folder,
      changeRequestSubject: config.changeRequestSubject ?? null,
      defaultChangeRequestSubject: `Edits from ${hostname()}`,
      syncIntervalMs: config.syncIntervalMs ?? DEFAULT_PULL_INTERVAL_MS,
      ignorePatterns: config.ignorePatterns ?? [],
    };
  }

  /** Runs a command, its failure typed. */
  private async command<T>(task: () => Promise<T>, subject: CommandSubject = {}): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw commandFailure(error, subject);
    }
  }

  private withEngine<T>(
    needsToken: boolean,
    task: (engine: EngineSession) => Promise<T>,
    subject: CommandSubject = {},
  ): Promise<T> {
    return this.command(
      async () => task((await this.sessions.open(needsToken, false)).engine),
      subject,
    );
  }

  private async holdingDrainLock<T>(command: string, task: () => Promise<T>): Promise<T> {
    const lock = await DrainLock.acquire(drainLockPath(this.services.home.root), { command });
    try {
      return await task();
    } finally {
      await lock.release();
    }
  }

  /** After a change: the status, conflicts and problems, to whoever listens (when they changed). */
  private async announce(which: { status: boolean } = { status: true }): Promise<void> {
    const engine = this.sessions.current?.engine;
    if (engine === undefined) return;
    const wanted =
      (which.status && this.events.listened('status')) || this.events.listened('problems');
    const read = wanted ? await engine.syncStatus() : undefined;
    const status = read !== undefined && this.tokenRejected ? withTokenRejected(read) : read;
    if (status !== undefined && which.status) this.events.emit('status', status);
    if (status !== undefined) {
      this.emitIfChanged('problems', status.problems);
    }
    if (this.events.listened('conflicts'))
      this.emitIfChanged('conflicts', await engine.conflicts());
  }

  private emitIfChanged<E extends 'problems' | 'conflicts'>(
    event: E,
    list: E extends 'problems' ? SyncStatusSnapshot['problems'] : readonly ConflictListing[],
  ): void {
    const text = JSON.stringify(list);
    if (this.announced[event] === text) return;
    this.announced[event] = text;
    this.events.emit(event, list as never);
  }
}

type Args<K extends CommandName> = CommandArgs<K>;

function withTokenRejected(status: SyncStatusSnapshot): SyncStatusSnapshot {
  return { ...status, state: 'error', error: TOKEN_REJECTED_MESSAGE, tokenRejected: true };
}

function pauseStateOf(state: { paused: boolean; until: Date | null }): PauseState {
  return { paused: state.paused, until: state.until?.toISOString() ?? null };
}

function invalid(field: string, message: string): CommandFailedError {
  const error: CommandError = { kind: 'invalid-argument', field, message };
  return new CommandFailedError(error);
}
