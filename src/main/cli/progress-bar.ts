import type { SyncProgress } from '../../shared/contract/sync-status';
import { terminalText, truncateText } from './terminal-text';

/** The part of a `tty.WriteStream` the bar uses; tests pass a fake. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): unknown;
}

export interface ProgressBarOptions {
  /** Milliseconds, for throttling; defaults to `Date.now`. */
  readonly now?: () => number;
  /** Minimum time between two redraws of the same phase. */
  readonly intervalMs?: number;
  /** Turns a space id into what is shown (a title); defaults to the id. */
  readonly spaceLabel?: (spaceId: string) => string | undefined;
}

const PHASE_LABELS: Record<SyncProgress['phase'], string> = {
  listing: 'Listing spaces',
  fetching: 'Fetching',
  writing: 'Writing',
  done: 'Done',
};

const MAX_BAR_WIDTH = 30;
const MIN_BAR_WIDTH = 8;
/** `\r` to the line start, then erase the whole line. */
const CLEAR_LINE = '\r\x1b[2K';

/**
 * A one-line progress display for `quire sync`, redrawn in place. It only draws on a terminal: on
 * a pipe or a file (cron, CI, tests) it writes nothing, so captured output stays clean and
 * machine-readable; the command prints its summary either way.
 * Hand-written: no progress-bar library is installed, and ~100 lines do not justify one.
 */
export class ProgressBar {
  private readonly enabled: boolean;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastKey = '';
  private visible = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: ProgressBarOptions = {},
  ) {
    this.enabled = stream.isTTY === true;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? 100;
  }

  /** Feed it every `SyncProgress` event; redraws at most every `intervalMs` within one phase. */
  update(progress: SyncProgress): void {
    if (!this.enabled) return;
    if (progress.phase === 'done') {
      this.clear();
      return;
    }
    const key = `${progress.phase}\0${progress.space ?? ''}`;
    const now = this.now();
    const finished = progress.total > 0 && progress.done >= progress.total;
    // A new phase or space, and the last step of one, always show; steps in between are throttled.
    if (key === this.lastKey && !finished && now - this.lastDraw < this.intervalMs) return;
    this.lastKey = key;
    this.lastDraw = now;
    this.stream.write(`${CLEAR_LINE}${this.render(progress)}`);
    this.visible = true;
  }

  /** Removes the bar, e.g. before printing a message or on exit. Safe to call repeatedly. */
  clear(): void {
    if (!this.visible) return;
    this.stream.write(CLEAR_LINE);
    this.visible = false;
    this.lastKey = '';
  }

  /** The text of one line for `progress`, fitted to the terminal width. */
  render(progress: SyncProgress): string {
    // One column short of the width: writing the last column makes some terminals wrap.
    // A pseudo-terminal without a size reports 0 columns: fall back to the classic 80.
    const width = Math.max((this.stream.columns || 80) - 1, 10);
    const space =
      progress.space === undefined
        ? ''
        : terminalText(this.options.spaceLabel?.(progress.space) ?? progress.space);
    const done = Math.max(0, Math.min(progress.done, progress.total));
    const counter = progress.total > 0 ? `${done}/${progress.total}` : `${progress.done}`;
    const percent = progress.total > 0 ? ` ${Math.floor((done / progress.total) * 100)}%` : '';
    const tail = ` ${counter}${percent}`;
    const label = PHASE_LABELS[progress.phase];

    let barWidth = 0;
    if (progress.total > 0) {
      const room = width - label.length - tail.length - 3; // the spaces and brackets around it
      barWidth = Math.min(MAX_BAR_WIDTH, room - Math.min(Array.from(space).length + 1, 20));
      if (barWidth < MIN_BAR_WIDTH) barWidth = 0;
    }
    const bar = barWidth > 0 ? ` [${fill(done, progress.total, barWidth)}]` : '';
    const spaceRoom = width - label.length - bar.length - tail.length - 1;
    const shownSpace = space !== '' && spaceRoom > 1 ? ` ${truncateText(space, spaceRoom)}` : '';
    return truncateText(`${label}${shownSpace}${bar}${tail}`, width);
  }
}

function fill(done: number, total: number, width: number): string {
  const filled = Math.round((done / total) * width);
  return `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
}
