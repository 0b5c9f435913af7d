import type { SpaceState } from '../../../shared/contract/space-state';
import type { SpaceStatus } from '../../../shared/contract/spaces';
import type { Tone } from './tone';

const STATES: Record<SpaceState, { label: string; tone: Tone }> = {
  disabled: { label: 'Not synced', tone: 'neutral' },
  pending: { label: 'Waiting for first sync', tone: 'busy' },
  outdated: { label: 'Update available', tone: 'busy' },
  synced: { label: 'Synced', tone: 'ok' },
  error: { label: 'Failed', tone: 'danger' },
  removed: { label: 'Removed on the server', tone: 'neutral' },
};

export function spaceStateView(state: SpaceState): { label: string; tone: Tone } {
  return STATES[state];
}

export interface OrganizationGroup {
  readonly organization: string;
  readonly spaces: readonly SpaceStatus[];
}

/** Spaces grouped by organization, both in alphabetical order (stable for equal titles). */
export function groupByOrganization(spaces: readonly SpaceStatus[]): OrganizationGroup[] {
  const groups = new Map<string, SpaceStatus[]>();
  for (const space of spaces) {
    const group = groups.get(space.organization) ?? [];
    group.push(space);
    groups.set(space.organization, group);
  }
  const byTitle = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });
  return [...groups.entries()]
    .sort(([a], [b]) => byTitle(a, b))
    .map(([organization, list]) => ({
      organization,
      spaces: [...list].sort((a, b) => byTitle(a.title, b.title)),
    }));
}
