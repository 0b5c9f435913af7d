/** Facts about the app that every process (main, preload, renderer, server) may read. */
export const APP_NAME = 'Quire';

/** The channel names of the UI<->engine bridge; the full contract grows with the desktop issues. */
export const BridgeChannel = {
  getAppInfo: 'quire:get-app-info',
} as const;

export interface AppInfo {
  name: string;
  version: string;
}

/** The typed contract implemented by the preload bridge and the localhost HTTP bridge alike. */
export interface QuireBridge {
  getAppInfo(): Promise<AppInfo>;
}
