import { createContext, useContext } from 'react';
import type { QuireBridge } from '../../../shared/contract/quire-bridge';

/** The bridge the screens talk through; App provides it once (tests of a screen can too). */
export const BridgeContext = createContext<QuireBridge | null>(null);

export function useBridge(): QuireBridge | null {
  return useContext(BridgeContext);
}
