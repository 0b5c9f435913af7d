import type { QuireUser } from './spaces';

/** The process syncing this home right now (the app, `quire sync --watch`), if any. */
export interface RunnerInfo {
  readonly pid: number;
  readonly host: string;
  /** `quire sync --watch`, `Quire app`… */
  readonly command: string;
  /** ISO time it started. */
  readonly since: string;
}

/**
 * Who am I and where: `new` before the first login; `logged-in` with a stored token;
 * `logged-out` after logout (the configuration and cache stay, the status still answers).
 */
export type ConnectionInfo = (
  | { readonly state: 'new' }
  | {
      readonly state: 'logged-in' | 'logged-out';
      /** Server origin, without `/v1`. */
      readonly server: string;
      /** Absolute path of the mirror folder. */
      readonly folder: string;
      readonly user: QuireUser;
      readonly runner: RunnerInfo | null;
    }
) & {
  /**
   * The desktop app only: true where the OS offers no keyring (Linux's safeStorage `basic_text`),
   * so a saved token is as good as plain text. Absent under `quire ui` (a 0600 file, as the CLI).
   */
  readonly plainTextSecrets?: boolean;
};

/** A server address as typed, checked: what is stored, and whether it is plain http elsewhere. */
export interface ServerUrlCheck {
  /** `scheme://host[:port]`, what is stored and shown. */
  readonly origin: string;
  /** Plain http to another computer: the token would cross the network unencrypted. */
  readonly cleartext: boolean;
}

export interface LoginRequest {
  readonly server: string;
  readonly token: string;
  /** Absolute path of the mirror folder (created when missing). */
  readonly folder: string;
}

/** Something the user should know after a login that worked. */
export type LoginWarning = {
  /** The folder is (or was) the mirror of another Quire home. */
  readonly kind: 'other-mirror';
  readonly message: string;
};

export interface LoginResult {
  readonly server: string;
  readonly folder: string;
  readonly user: QuireUser;
  readonly warnings: readonly LoginWarning[];
}

export type LogoutResult =
  | { readonly loggedOut: false }
  | { readonly loggedOut: true; readonly server: string; readonly folder: string };

export interface QuireSettings {
  readonly server: string;
  /** Absolute path of the mirror folder (chosen at login). */
  readonly folder: string;
  /** Subject of new working change requests; null: the default below. */
  readonly changeRequestSubject: string | null;
  /** "Edits from <this computer>". */
  readonly defaultChangeRequestSubject: string;
  /** How often the background sync pulls, in milliseconds. */
  readonly syncIntervalMs: number;
  /**
   * Files the sync leaves alone in every space folder, beyond the built-in ones (editor backups,
   * hidden files): globs relative to the space folder, `*` and `?` within a name, `**` across
   * folders; without `/` a name at any depth; a trailing `/` folders only.
   */
  readonly ignorePatterns: readonly string[];
}

/** The settings a front end may change; an absent field stays as it is. */
export interface SettingsUpdate {
  /** null: back to the default subject. */
  readonly changeRequestSubject?: string | null;
  readonly syncIntervalMs?: number;
  /** Replaces the whole list. */
  readonly ignorePatterns?: readonly string[];
}
