import type { CommandArgs, CommandName, CommandOutcome } from './quire-commands';
import type { EventName, QuireEventListener } from './quire-events';

export const APP_NAME = 'Quire';

/** The IPC channel of a command (`quire:command:<name>`); its answer is a CommandOutcome. */
export function commandChannel(name: CommandName): string {
  return `quire:command:${name}`;
}

/** The IPC channel of an event (`quire:event:<name>`). */
export function eventChannel(name: EventName): string {
  return `quire:event:${name}`;
}

/**
 * What the renderer sees, whichever transport carries it (the preload's IPC, or HTTP and
 * server-sent events for `quire ui`): commands answer a CommandOutcome (a failure is data, never a
 * thrown Error, so it survives serialisation), events reach listeners until unsubscribed.
 */
export interface QuireBridge {
  invoke<K extends CommandName>(name: K, args: CommandArgs<K>): Promise<CommandOutcome<K>>;
  on<E extends EventName>(event: E, listener: QuireEventListener<E>): () => void;
}
