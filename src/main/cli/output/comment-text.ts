import type { CommentThread, CommentView } from '../../../shared/contract/review';
import { terminalText } from '../terminal-text';
import { oneLine } from './text';

/** `2026-11-26 18:04`: minutes are enough to tell comments apart. */
function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function heading(item: CommentView): string {
  const marks = [
    item.pending === null ? '' : ` (pending ${item.pending})`,
    item.editedAt === null ? '' : ' (edited)',
  ].join('');
  return `${item.id}  ${oneLine(item.author.displayName)} · ${shortTime(item.postedAt)}${marks}`;
}

function details(item: CommentView, indent: string): string[] {
  const lines = terminalText(item.body)
    .split('\n')
    .map((line) => `${indent}${line}`);
  if (item.reactions.length > 0) {
    const reactions = item.reactions.map(
      (reaction) => `${oneLine(reaction.emoji)} ${reaction.count}${reaction.mine ? ' (you)' : ''}`,
    );
    lines.push(`${indent}${reactions.join('  ')}`);
  }
  if (item.problem !== null) lines.push(`${indent}! ${oneLine(item.problem)}`);
  return lines;
}

/** A thread as `quire cr comments` prints it: the comment, then its replies indented. */
export function commentThreadText(thread: CommentThread): string[] {
  const where =
    thread.page === null ? '' : `  on ${oneLine(thread.page.path || thread.page.title)}`;
  const resolved = thread.resolved ? '  [resolved]' : '';
  const lines = [`${heading(thread)}${where}${resolved}`, ...details(thread, '    ')];
  for (const reply of thread.replies) {
    lines.push(`  ↳ ${heading(reply)}`, ...details(reply, '      '));
  }
  return lines;
}
