import type { QuireBridge } from '../../../shared/contract/quire-bridge';

declare global {
  interface Window {
    quire?: QuireBridge;
  }
}

/**
 * Placeholder until the host's transport lands (its version wins at merge): the preload's bridge,
 * or null when the page was opened without one.
 */
export function getBridge(): QuireBridge | null {
  return window.quire ?? null;
}
