import type { EventName, QuireEvents } from '../../../shared/contract/quire-events';
import type { QuireHome } from '../../config/quire-home';
import type { Session } from '../engine-sessions';

/**
 * What the review commands (comments, actions, checkouts) borrow from the application layer: the
 * open engine session, the home, and the event stream. Failures thrown inside `withSession` reach
 * the front end typed, as every command's do.
 */
export interface ReviewContext {
  readonly home: QuireHome;
  /** `needsToken`: the task talks to the server (a token is required to open the session). */
  withSession<T>(needsToken: boolean, task: (session: Session) => Promise<T>): Promise<T>;
  emit<E extends EventName>(event: E, payload: QuireEvents[E]): void;
  /** Asks the background sync of this process (if one runs) for a run soon: queued changes go. */
  requestSync?(): void;
}
