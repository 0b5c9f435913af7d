/**
 * Calls `run` at most once per `intervalMs`: the first call runs at once, calls during the
 * interval fold into one trailing run at its end. Status events can come dozens of times a
 * second during a long sync; a screen re-reads its data at this pace, and never misses the last
 * change.
 */
export interface Throttled {
  (): void;
  cancel(): void;
}

export function throttle(run: () => void, intervalMs: number): Throttled {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  const throttled = () => {
    if (timer !== undefined) return;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  };
  throttled.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return throttled;
}
