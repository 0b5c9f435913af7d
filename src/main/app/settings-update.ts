import { CommandFailedError } from '../../shared/contract/command-error';
import type { SettingsUpdate } from '../../shared/contract/connection';
import type { QuireConfig } from '../config/quire-home';

/** The API's limit for a change request subject. */
export const MAX_SUBJECT_LENGTH = 100;

/** The shortest pull interval accepted: the server's rate limit is shared with every push. */
const MIN_SYNC_INTERVAL_MS = 1_000;

/** The configuration with `update` applied, or `invalid-argument` naming the field at fault. */
export function settingsUpdate(config: QuireConfig, update: SettingsUpdate): QuireConfig {
  let next: QuireConfig = config;
  if (update.changeRequestSubject !== undefined) {
    const { changeRequestSubject: _old, ...rest } = next;
    next = rest;
    if (update.changeRequestSubject !== null) {
      next = { ...rest, changeRequestSubject: checkedSubject(update.changeRequestSubject) };
    }
  }
  if (update.syncIntervalMs !== undefined) {
    const ms = update.syncIntervalMs;
    if (!Number.isSafeInteger(ms) || ms < MIN_SYNC_INTERVAL_MS) {
      throw invalid(
        'syncIntervalMs',
        `the sync interval is a whole number of milliseconds, at least ${MIN_SYNC_INTERVAL_MS}`,
      );
    }
    next = { ...next, syncIntervalMs: ms };
  }
  if (update.ignorePatterns !== undefined) {
    const { ignorePatterns: _old, ...rest } = next;
    const patterns = [...new Set(update.ignorePatterns.map((line) => line.trim()))].filter(
      (line) => line !== '',
    );
    next = patterns.length > 0 ? { ...rest, ignorePatterns: patterns } : rest;
  }
  return next;
}

/**
 * Whether a running watcher must start again for `next`: the engine takes these when it opens,
 * the watcher its interval when it starts.
 */
export function watchSettingsChanged(previous: QuireConfig, next: QuireConfig): boolean {
  return (
    previous.changeRequestSubject !== next.changeRequestSubject ||
    previous.syncIntervalMs !== next.syncIntervalMs ||
    previous.folder !== next.folder ||
    (previous.ignorePatterns ?? []).join('\n') !== (next.ignorePatterns ?? []).join('\n')
  );
}

function checkedSubject(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[\r\n]/.test(trimmed) || trimmed.length > MAX_SUBJECT_LENGTH) {
    throw invalid(
      'changeRequestSubject',
      `a subject is one line of 1 to ${MAX_SUBJECT_LENGTH} characters`,
    );
  }
  return trimmed;
}

function invalid(field: string, message: string): CommandFailedError {
  return new CommandFailedError({ kind: 'invalid-argument', field, message });
}
