import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommandError } from '../../../shared/contract/command-error';
import type {
  CommandArgs,
  CommandName,
  CommandResult,
} from '../../../shared/contract/quire-commands';
import type { EventName, QuireEvents } from '../../../shared/contract/quire-events';
import { throttle } from '../model/throttle';
import { useBridge } from './use-bridge';

/** Least time between two re-reads a screen makes for events. */
const EVENT_REFRESH_MS = 250;

export type Loaded<T> =
  { status: 'loading' } | { status: 'error'; error: CommandError } | { status: 'ready'; data: T };

const NO_BRIDGE: CommandError = {
  kind: 'unexpected',
  message: 'This window is not connected to the Quire sync engine. Reopen Quire.',
};

/**
 * Runs a read command and keeps its answer; runs it again on `reload()` and whenever one of the
 * `refreshOn` events arrives (the screen shows the engine's state, never a stale copy).
 */
export function useCommand<K extends CommandName>(
  name: K,
  args: CommandArgs<K>,
  refreshOn: readonly EventName[] = [],
): { state: Loaded<CommandResult<K>>; reload: () => void } {
  const bridge = useBridge();
  const [state, setState] = useState<Loaded<CommandResult<K>>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const argsKey = JSON.stringify(args);
  const argsRef = useRef(args);
  argsRef.current = args;
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    if (!bridge) {
      setState({ status: 'error', error: NO_BRIDGE });
      return;
    }
    let current = true;
    bridge.invoke(name, argsRef.current).then(
      (outcome) => {
        if (!current) return;
        setState(
          outcome.ok
            ? { status: 'ready', data: outcome.result }
            : { status: 'error', error: outcome.error },
        );
      },
      (error: unknown) => {
        if (current)
          setState({ status: 'error', error: { kind: 'unexpected', message: String(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, name, argsKey, generation]);

  const eventsKey = refreshOn.join(',');
  useEffect(() => {
    if (!bridge || eventsKey === '') return;
    // Events come in bursts during a sync; the screen re-reads at most a few times a second.
    const refresh = throttle(reload, EVENT_REFRESH_MS);
    const offs = eventsKey.split(',').map((event) => bridge.on(event as EventName, refresh));
    return () => {
      refresh.cancel();
      offs.forEach((off) => off());
    };
  }, [bridge, eventsKey, reload]);

  return { state, reload };
}

/** The latest payload of an event, or `initial` until the first one. */
export function useEventValue<E extends EventName, T>(
  event: E,
  initial: T,
  pick: (payload: QuireEvents[E]) => T,
): T {
  const bridge = useBridge();
  const [value, setValue] = useState(initial);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  useEffect(() => {
    if (!bridge) return;
    return bridge.on(event, (payload) => setValue(pickRef.current(payload)));
  }, [bridge, event]);
  return value;
}
