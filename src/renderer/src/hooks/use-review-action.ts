import { useCallback, useState } from 'react';
import type { CommandError } from '../../../shared/contract/command-error';
import type {
  CommandArgs,
  CommandName,
  CommandOutcome,
  CommandResult,
} from '../../../shared/contract/quire-commands';
import type { ActionOutcome } from '../model/action-outcome';
import { actionErrorTitle } from '../model/review-view';
import { useBridge } from './use-bridge';

export type Describe<K extends CommandName> = (result: CommandResult<K>) => ActionOutcome | null;

export interface ReviewAction {
  /**
   * Runs the command; `describe` turns its result into the outcome shown (null: nothing to
   * say). Resolves to whether it worked (many review commands answer null when they do).
   */
  run: <K extends CommandName>(
    name: K,
    args: CommandArgs<K>,
    describe?: Describe<K>,
  ) => Promise<boolean>;
  busy: boolean;
  outcome: ActionOutcome | null;
  dismiss: () => void;
}

const NO_BRIDGE: CommandError = {
  kind: 'unexpected',
  message: 'Not connected to the Quire sync engine.',
};

/**
 * Runs a review action the user asked for and keeps what came of it: a success as `describe`
 * says, a failure titled by its kind (offline, refused…) with the engine's message.
 */
export function useReviewAction(): ReviewAction {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const run = useCallback(
    async <K extends CommandName>(name: K, args: CommandArgs<K>, describe?: Describe<K>) => {
      setBusy(true);
      setOutcome(null);
      let answer: CommandOutcome<K>;
      try {
        answer = bridge ? await bridge.invoke(name, args) : { ok: false, error: NO_BRIDGE };
      } catch (thrown) {
        answer = { ok: false, error: { kind: 'unexpected', message: String(thrown) } };
      }
      setBusy(false);
      if (answer.ok) setOutcome(describe ? describe(answer.result) : null);
      else
        setOutcome({
          kind: 'failed',
          title: actionErrorTitle(answer.error),
          message: answer.error.message,
        });
      return answer.ok;
    },
    [bridge],
  );
  const dismiss = useCallback(() => setOutcome(null), []);
  return { run, busy, outcome, dismiss };
}
