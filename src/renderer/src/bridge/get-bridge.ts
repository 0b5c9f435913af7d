import type { QuireBridge } from '../../../shared/contract/quire-bridge';
import { createHttpBridge } from './http-bridge';

declare global {
  interface Window {
    /** Exposed by the desktop app's preload; absent in a browser on `quire ui`. */
    quire?: QuireBridge;
  }
}

let bridge: QuireBridge | undefined;

/**
 * The one way the UI reaches the application layer, whichever transport carries it: the
 * preload's IPC bridge in the desktop app, else `quire ui`'s HTTP and server-sent events, with
 * the secret from the URL's fragment (then removed from the address bar, kept for reloads in
 * this tab's sessionStorage).
 */
export function getBridge(): QuireBridge {
  if (bridge !== undefined) return bridge;
  if (window.quire !== undefined) {
    bridge = window.quire;
  } else {
    bridge = createHttpBridge(window.location, { storage: window.sessionStorage });
    if (window.location.hash.includes('secret=')) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
  }
  return bridge;
}
