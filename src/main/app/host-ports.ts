import type { DesktopSettings, DesktopSettingsUpdate } from '../../shared/contract/host';

/**
 * What the process hosting the application layer lends it beyond the engine, each optional: the
 * composition root (the Electron main, `quire ui`) passes what it has, and a command whose port
 * is absent answers `unavailable`. The application layer never imports what implements them
 * (Electron's shell, the server behind the demo).
 */
export interface HostPorts {
  /** Opens an absolute path (already checked to be inside the mirror) with the system's opener. */
  readonly openPath?: (absolutePath: string) => Promise<void>;
  /** Starts (or finds running) the embedded demo server; its URL and the demo token. */
  readonly startDemoServer?: () => Promise<{ server: string; token: string }>;
  /** The desktop app's own settings (launch at login, notifications). */
  readonly desktopSettings?: DesktopSettingsPort;
  /** Whether a saved token would be as good as plain text (no keyring). */
  readonly plainTextSecrets?: () => boolean;
}

/** The embedded demo server a host can start (src/demo's launcher implements it). */
export interface DemoServerPort {
  /** Starts it (once); its URL and the demo token. */
  start(): Promise<{ server: string; token: string }>;
  /** Whether `server` is this demo server (a home logged in to it last time). */
  serves(server: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface DesktopSettingsPort {
  read(): Promise<DesktopSettings>;
  update(update: DesktopSettingsUpdate): Promise<DesktopSettings>;
}
