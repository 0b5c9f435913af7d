import { useEffect, useState } from 'react';
import type { SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { useBridge } from './use-bridge';
import { useCommand, type Loaded } from './use-command';

/** The status snapshot: read once, then replaced by every `status` event's payload. */
export function useStatus(): { state: Loaded<SyncStatusSnapshot>; reload: () => void } {
  const bridge = useBridge();
  const { state, reload } = useCommand('status', {});
  const [pushed, setPushed] = useState<SyncStatusSnapshot | null>(null);
  useEffect(() => {
    if (!bridge) return;
    return bridge.on('status', setPushed);
  }, [bridge]);
  useEffect(() => {
    if (state.status === 'ready') setPushed(null);
  }, [state]);
  return { state: pushed ? { status: 'ready', data: pushed } : state, reload };
}
