/** Throws the reason of the first signal that has aborted. */
export function throwIfAborted(signals: AbortSignal[]): void {
  for (const signal of signals) signal.throwIfAborted();
}

/** `promise`, or the reason of the first signal to abort. The promise's own failure is kept quiet. */
export function abortable<T>(promise: Promise<T>, signals: AbortSignal[]): Promise<T> {
  if (signals.length === 0) return promise;
  promise.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (event: Event) => {
      cleanup();
      reject((event.target as AbortSignal | null)?.reason);
    };
    const cleanup = () => {
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    };
    for (const signal of signals) {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
    }
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}
