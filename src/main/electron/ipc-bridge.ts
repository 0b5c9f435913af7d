import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { commandChannel, eventChannel } from '../../shared/contract/quire-bridge';
import {
  COMMAND_NAMES,
  type CommandName,
  type CommandOutcome,
  type QuireCommandHandlers,
} from '../../shared/contract/quire-commands';
import {
  EVENT_NAMES,
  type EventName,
  type QuireEventListener,
} from '../../shared/contract/quire-events';
import { parseCommandArgs } from '../../shared/contract/parse-command-args';
import { dispatchCommand } from '../app/dispatch-command';

/** The frame that sent an IPC message, as far as the sender check needs it. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

/** Refused before anything is parsed: the message came from a frame that is not the app's page. */
export class UntrustedSenderError extends Error {
  override readonly name = 'UntrustedSenderError';
}

/**
 * One `ipcMain.handle` per command of the contract. Each answer is checked in this order: the
 * sender is the app's own main frame (not an iframe, not a page navigated elsewhere), the argument
 * is what the contract allows (parseCommandArgs), and only then the application layer runs it.
 * Returns the function that removes the handlers.
 */
export function registerCommandHandlers(
  ipc: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: QuireCommandHandlers,
  isTrustedUrl: (url: string) => boolean,
): () => void {
  for (const name of COMMAND_NAMES) {
    ipc.handle(commandChannel(name), (event, args: unknown) =>
      answerCommand(handlers, isTrustedUrl, name, event.senderFrame, args),
    );
  }
  return () => {
    for (const name of COMMAND_NAMES) ipc.removeHandler(commandChannel(name));
  };
}

/** One command's answer, or a rejection for a sender that is not the app's main frame. */
export async function answerCommand<K extends CommandName>(
  handlers: QuireCommandHandlers,
  isTrustedUrl: (url: string) => boolean,
  name: K,
  frame: SenderFrame | IpcMainInvokeEvent['senderFrame'] | null | undefined,
  args: unknown,
): Promise<CommandOutcome<K>> {
  if (!isTrustedFrame(frame, isTrustedUrl)) {
    throw new UntrustedSenderError(`refused ${name}: the sender is not Quire's window`);
  }
  const parsed = parseCommandArgs(name, args);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return dispatchCommand(handlers, name, parsed.args);
}

/** The app's page in a top-level frame; a destroyed frame (null) is refused too. */
export function isTrustedFrame(
  frame: SenderFrame | null | undefined,
  isTrustedUrl: (url: string) => boolean,
): boolean {
  if (frame === null || frame === undefined) return false;
  return frame.parent === null && isTrustedUrl(frame.url);
}

/** Where events go: the app's windows, whichever are open now. */
export type EventTargets = () => readonly Pick<WebContents, 'send' | 'isDestroyed'>[];

export interface EventSource {
  on<E extends EventName>(event: E, listener: QuireEventListener<E>): () => void;
}

/** Sends every event of the application layer to every open window; returns the unsubscribe. */
export function forwardEvents(source: EventSource, targets: EventTargets): () => void {
  const offs = EVENT_NAMES.map((name) =>
    source.on(name, (payload) => {
      for (const contents of targets()) {
        if (!contents.isDestroyed()) contents.send(eventChannel(name), payload);
      }
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
