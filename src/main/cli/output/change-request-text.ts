import type {
  ChangeRequestDetail,
  ChangeRequestSummary,
  ChangeRequestWait,
  DiffLine,
  PageDiff,
} from '../../../shared/contract/change-requests';
import { terminalText } from '../terminal-text';
import { oneLine, plural } from './text';

/** ANSI styles, or none (not a terminal, or NO_COLOR set). */
export interface Styles {
  added(text: string): string;
  removed(text: string): string;
  /** The changed words inside a changed line. */
  strong(text: string): string;
  dim(text: string): string;
}

const ESC = '\u001b[';
const wrap = (open: string, close: string) => (text: string) =>
  `${ESC}${open}m${text}${ESC}${close}m`;

export const COLOURS: Styles = {
  added: wrap('32', '39'),
  removed: wrap('31', '39'),
  strong: wrap('7', '27'),
  dim: wrap('2', '22'),
};
const same = (text: string) => text;
export const PLAIN: Styles = { added: same, removed: same, strong: same, dim: same };

const WAIT_TEXT: Record<ChangeRequestWait, string> = {
  'review-requested': 'review requested',
  'changes-requested': 'changes requested',
  approved: 'approved',
};

/** One inbox line: `Space #4 [open] Subject — author, waits for you: …`. */
export function changeRequestLine(cr: ChangeRequestSummary): string {
  const flags = [
    cr.outdated ? 'outdated' : null,
    cr.pinned ? 'pinned' : null,
    cr.comments > 0 ? plural(cr.comments, 'comment') : null,
  ].filter((flag) => flag !== null);
  const wait = cr.waitingForYou ? ` — waits for you: ${WAIT_TEXT[cr.waitingForYou]}` : '';
  const extra = flags.length > 0 ? ` (${flags.join(', ')})` : '';
  return `${oneLine(cr.space)} #${cr.number} [${cr.status}] ${oneLine(cr.subject) || '(no subject)'} — ${oneLine(cr.author.displayName)}${extra}${wait}`;
}

export function changeRequestDetailText(cr: ChangeRequestDetail): string[] {
  const lines = [
    `${oneLine(cr.organization)} / ${oneLine(cr.space)} #${cr.number}: ${oneLine(cr.subject) || '(no subject)'}`,
    `  status: ${cr.status}${cr.outdated ? ', outdated (main moved: update from main)' : ''}`,
    `  author: ${oneLine(cr.author.displayName)}, created ${cr.createdAt}, updated ${cr.updatedAt}`,
    `  comments: ${cr.comments} open`,
  ];
  if (cr.waitingForYou) lines.push(`  waits for you: ${WAIT_TEXT[cr.waitingForYou]}`);
  lines.push(
    cr.requestedReviewers.length === 0
      ? '  reviewers requested: none'
      : `  reviewers requested: ${cr.requestedReviewers.map((r) => oneLine(r.user.displayName)).join(', ')}`,
  );
  if (cr.reviews.length === 0) lines.push('  reviews: none');
  for (const review of cr.reviews) {
    const outdated = review.outdated ? ' (outdated)' : '';
    lines.push(
      `  review: ${oneLine(review.reviewer.displayName)} ${review.status}${outdated}, ${review.createdAt}`,
    );
  }
  for (const contributor of cr.contributors) {
    lines.push(
      `  contributor: ${oneLine(contributor.user.displayName)} (${contributor.actionType}, ${contributor.count})`,
    );
  }
  if (cr.url) lines.push(`  ${terminalText(cr.url)}`);
  lines.push(`  mirrored ${cr.fetchedAt}`);
  return lines;
}

/** A page's heading line: what happened to it. */
export function pageDiffHeading(page: PageDiff): string {
  const what: string[] = [page.status];
  if (page.renamedFrom !== null) what.push(`renamed from "${oneLine(page.renamedFrom)}"`);
  if (page.moved) {
    const from = page.moved.fromParent === null ? 'the top' : `"${oneLine(page.moved.fromParent)}"`;
    const to = page.moved.toParent === null ? 'the top' : `"${oneLine(page.moved.toParent)}"`;
    what.push(`moved from ${from} to ${to}`);
  }
  if (page.fields.length > 0) what.push(`fields: ${page.fields.join(', ')}`);
  if (page.added + page.removed > 0) what.push(`+${page.added} -${page.removed}`);
  return `${oneLine(page.title)} (${terminalText(page.path)}): ${what.join('; ')}`;
}

/** A unified diff line, words that changed highlighted. */
export function diffLineText(line: DiffLine, styles: Styles): string {
  if (line.kind === 'skipped') return styles.dim(`  … ${plural(line.count, 'unchanged line')}`);
  const text = line.segments
    .map((segment) =>
      segment.changed && line.kind !== 'context'
        ? styles.strong(terminalText(segment.text))
        : terminalText(segment.text),
    )
    .join('');
  if (line.kind === 'added') return styles.added(`+ ${text}`);
  if (line.kind === 'removed') return styles.removed(`- ${text}`);
  return `  ${text}`;
}
