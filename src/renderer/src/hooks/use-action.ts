import { useCallback, useState } from 'react';
import type { CommandError } from '../../../shared/contract/command-error';
import type {
  CommandArgs,
  CommandName,
  CommandResult,
} from '../../../shared/contract/quire-commands';
import { useBridge } from './use-bridge';

/**
 * Runs a command the user asked for: `busy` while it runs (to disable the button), its error kept
 * to show next to it; resolves to the result, or null when it failed.
 */
export function useAction(): {
  run: <K extends CommandName>(name: K, args: CommandArgs<K>) => Promise<CommandResult<K> | null>;
  busy: boolean;
  error: CommandError | null;
  clearError: () => void;
} {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CommandError | null>(null);
  const run = useCallback(
    async <K extends CommandName>(name: K, args: CommandArgs<K>) => {
      if (!bridge) {
        setError({ kind: 'unexpected', message: 'Not connected to the Quire sync engine.' });
        return null;
      }
      setBusy(true);
      setError(null);
      try {
        const outcome = await bridge.invoke(name, args);
        if (outcome.ok) return outcome.result;
        setError(outcome.error);
        return null;
      } catch (thrown) {
        setError({ kind: 'unexpected', message: String(thrown) });
        return null;
      } finally {
        setBusy(false);
      }
    },
    [bridge],
  );
  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}
