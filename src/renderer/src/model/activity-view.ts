import type { ActivityEntry, ActivityKind } from '../../../shared/contract/activity';
import type { Tone } from './tone';

const KINDS: Record<ActivityKind, { label: string; tone: Tone }> = {
  pulled: { label: 'Pulled', tone: 'ok' },
  pushed: { label: 'Pushed', tone: 'busy' },
  merged: { label: 'Merged', tone: 'ok' },
  removed: { label: 'Removed', tone: 'neutral' },
  resolved: { label: 'Resolved', tone: 'ok' },
  failed: { label: 'Failed', tone: 'danger' },
};

export function activityKindView(kind: ActivityKind): { label: string; tone: Tone } {
  return KINDS[kind];
}

/** Newest first, a new entry from an event merged in without duplicates, at most `limit`. */
export function mergeActivity(
  entries: readonly ActivityEntry[],
  added: readonly ActivityEntry[],
  limit: number,
): ActivityEntry[] {
  const byId = new Map<number, ActivityEntry>();
  for (const entry of [...added, ...entries]) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id).slice(0, limit);
}
