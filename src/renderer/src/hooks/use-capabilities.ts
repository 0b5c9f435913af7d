import type { HostCapabilities } from '../../../shared/contract/host';
import { useCommand } from './use-command';

const NONE: HostCapabilities = { openPath: false, startDemo: false, desktopSettings: false };

/**
 * What the host offers beyond the engine (opening files, the demo, desktop settings): nothing
 * until it answers, so a button the host cannot serve never shows, not even briefly.
 */
export function useCapabilities(): HostCapabilities {
  const { state } = useCommand('capabilities', {});
  return state.status === 'ready' ? state.data : NONE;
}
