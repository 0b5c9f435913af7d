import { useCallback, useState } from 'react';
import type {
  CommandArgs,
  CommandName,
  CommandResult,
} from '../../../shared/contract/quire-commands';
import type { ActionOutcome } from '../model/action-outcome';
import { actionErrorTitle } from '../model/review-view';
import { useAction } from './use-action';

/**
 * Runs a review action and keeps what came of it to show: `describe` turns the result into the
 * outcome shown; a failure becomes a titled error (offline, refused…) with the engine's message.
 */
export function useReviewAction(): {
  run: <K extends CommandName>(
    name: K,
    args: CommandArgs<K>,
    describe: (result: CommandResult<K>) => ActionOutcome,
  ) => Promise<CommandResult<K> | null>;
  busy: boolean;
  outcome: ActionOutcome | null;
  dismiss: () => void;
} {
  const action = useAction();
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const { run: runAction, clearError } = action;
  const run = useCallback(
    async <K extends CommandName>(
      name: K,
      args: CommandArgs<K>,
      describe: (result: CommandResult<K>) => ActionOutcome,
    ) => {
      setOutcome(null);
      const result = await runAction(name, args);
      if (result !== null) setOutcome(describe(result));
      return result;
    },
    [runAction],
  );
  const failure: ActionOutcome | null = action.error
    ? { kind: 'failed', title: actionErrorTitle(action.error), message: action.error.message }
    : null;
  const dismiss = useCallback(() => {
    setOutcome(null);
    clearError();
  }, [clearError]);
  return { run, busy: action.busy, outcome: failure ?? outcome, dismiss };
}
