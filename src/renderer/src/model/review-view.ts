import type {
  ChangeRequestState,
  ChangeRequestSummary,
  ChangeRequestWait,
  PageDiff,
} from '../../../shared/contract/change-requests';
import type { CommandError } from '../../../shared/contract/command-error';
import type { ChangeRequestActionOutcome } from '../../../shared/contract/review';
import type { ActionOutcome } from './action-outcome';
import type { Tone } from './tone';

/**
 * What makes a review screen read again: the engine's word that a change request changed, and
 * the end of a sync run (which refreshes the mirror).
 */
export const REVIEW_EVENTS = ['reviewChanged', 'run'] as const;

export const STATE_LABELS: Record<ChangeRequestState, { label: string; tone: Tone }> = {
  draft: { label: 'Draft', tone: 'neutral' },
  open: { label: 'Open', tone: 'busy' },
  merged: { label: 'Merged', tone: 'ok' },
  archived: { label: 'Archived', tone: 'neutral' },
};

export const WAIT_LABELS: Record<ChangeRequestWait, { label: string; tone: Tone }> = {
  'review-requested': { label: 'Your review is requested', tone: 'warn' },
  'changes-requested': { label: 'Changes requested', tone: 'danger' },
  approved: { label: 'Approved: ready to merge', tone: 'ok' },
};

/** The inbox in two groups: what waits for the user, then the rest; each pinned first, newest first. */
export function inboxGroups(items: readonly ChangeRequestSummary[]): {
  waiting: ChangeRequestSummary[];
  others: ChangeRequestSummary[];
} {
  const order = (a: ChangeRequestSummary, b: ChangeRequestSummary) =>
    Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt);
  return {
    waiting: items.filter((item) => item.waitingForYou !== null).sort(order),
    others: items.filter((item) => item.waitingForYou === null).sort(order),
  };
}

/** What the diff's page list says about a page: added, removed, moved, renamed, edited. */
export function pageBadges(page: PageDiff): { label: string; tone: Tone }[] {
  const badges: { label: string; tone: Tone }[] = [];
  if (page.status === 'added') badges.push({ label: 'Added', tone: 'ok' });
  if (page.status === 'removed') badges.push({ label: 'Removed', tone: 'danger' });
  if (page.renamedFrom !== null) badges.push({ label: 'Renamed', tone: 'busy' });
  if (page.moved !== null) badges.push({ label: 'Moved', tone: 'busy' });
  if (page.status === 'modified' && page.contentChanged)
    badges.push({ label: 'Edited', tone: 'warn' });
  if (page.fields.length > 0) badges.push({ label: 'Details changed', tone: 'neutral' });
  return badges;
}

/** The sentence above a failed action: the engine's message says the rest. */
export function actionErrorTitle(error: CommandError): string {
  if (error.kind === 'offline') return 'This needs a connection to the server';
  if (error.kind === 'refused') return 'The server refused it';
  if (error.kind === 'unavailable') return 'Not available here yet';
  if (error.kind === 'unknown-change-request') return 'This change request is gone';
  return 'It did not work';
}

/** What a merge or an update from main did, as the screen shows it. */
export function describeOutcome(
  action: 'merge' | 'update',
  outcome: ChangeRequestActionOutcome,
): ActionOutcome {
  const verb = action === 'merge' ? 'merged' : 'updated';
  if (outcome.result === 'conflicts')
    return {
      kind: 'conflicts',
      message: `Not ${verb}: these pages changed both in this change request and on main.`,
      pages: outcome.pages,
    };
  if (outcome.result === 'unchanged')
    return {
      kind: 'done',
      message: action === 'merge' ? 'Nothing to merge.' : 'Already up to date with main.',
    };
  return {
    kind: 'done',
    message: action === 'merge' ? 'Merged. Main gets it on the next sync.' : 'Updated from main.',
  };
}
