/**
 * What the process hosting the UI offers beyond the engine: the Electron app opens files and
 * folders, starts the demo and keeps desktop settings; `quire ui` opens files with the system's
 * opener. The UI shows only what is there (a command the host lacks answers `unavailable`).
 */
export interface HostCapabilities {
  /** `openPath`: a folder or file of the mirror in the system's file manager or editor. */
  readonly openPath: boolean;
  /** `startDemo`: the embedded demo server, synced into a folder the user picks. */
  readonly startDemo: boolean;
  /** `desktopSettings` / `updateDesktopSettings`: launch at login and notifications. */
  readonly desktopSettings: boolean;
}

/**
 * What `openPath` opens: a space's folder, a path relative to the mirror folder (a problem's), or
 * an open conflict's file.
 */
export type OpenPathTarget =
  { readonly spaceId: string } | { readonly path: string } | { readonly conflictId: number };

/** The desktop app's own settings (not in the Quire home: they belong to this computer's app). */
export interface DesktopSettings {
  readonly launchAtLogin: boolean;
  readonly notifications: boolean;
}

/** An absent field stays as it is. */
export interface DesktopSettingsUpdate {
  readonly launchAtLogin?: boolean;
  readonly notifications?: boolean;
}
