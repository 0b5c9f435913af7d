import type {
  EventName,
  QuireEventListener,
  QuireEvents,
} from '../../shared/contract/quire-events';

/** The application layer's event hub: typed listeners per event name. */
export class AppEvents {
  private readonly listeners = new Map<EventName, Set<QuireEventListener<never>>>();

  /** Calls `listener` on every `event` until the returned function is called. */
  on<E extends EventName>(event: E, listener: QuireEventListener<E>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    const stored = listener as QuireEventListener<never>;
    set.add(stored);
    return () => {
      set.delete(stored);
    };
  }

  emit<E extends EventName>(event: E, payload: QuireEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      // A front end's listener failing must not fail the command that announced the event.
      try {
        (listener as QuireEventListener<E>)(payload);
      } catch {
        // Ignored: the listener's own problem.
      }
    }
  }

  listened(event: EventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }
}
