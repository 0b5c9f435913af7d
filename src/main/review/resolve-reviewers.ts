import type { RemoteMember } from './review-remote';

/** A reviewer named by nobody, or by several people: the message says which and who. */
export class ReviewerNotResolvedError extends Error {
  override readonly name = 'ReviewerNotResolvedError';
}

/**
 * The member a reviewer name stands for: a user id, an email, a display name (case-insensitive,
 * exact) or, when no display name is, the first word of one ("Cleo" for "Cleo Review": what
 * people type). An id or an email is unique; a name shared by several people is refused with
 * their emails, so the user can pick one.
 */
export function resolveReviewer(name: string, members: readonly RemoteMember[]): RemoteMember {
  const wanted = name.trim();
  const byId = members.find((member) => member.id === wanted);
  if (byId) return byId;
  const folded = wanted.toLocaleLowerCase();
  const byEmail = members.filter((member) => member.email?.toLocaleLowerCase() === folded);
  if (byEmail.length === 1) return byEmail[0]!;
  const named = members.filter((member) => member.displayName.toLocaleLowerCase() === folded);
  const byName =
    named.length > 0 ? named : members.filter((member) => firstWordOf(member) === folded);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    const who = byName
      .map((member) => member.email ?? member.id)
      .sort()
      .join(', ');
    throw new ReviewerNotResolvedError(
      `"${wanted}" names ${byName.length} members (${who}): give an email or a user id`,
    );
  }
  throw new ReviewerNotResolvedError(
    `nobody in the organization is "${wanted}" (give a member's user id, email or name)`,
  );
}

function firstWordOf(member: RemoteMember): string {
  return member.displayName.trim().split(/\s+/)[0]!.toLocaleLowerCase();
}

/** Every name resolved, or the first that is not (nothing is sent unless all are known). */
export function resolveReviewers(
  names: readonly string[],
  members: readonly RemoteMember[],
): RemoteMember[] {
  const resolved = names.map((name) => resolveReviewer(name, members));
  return [...new Map(resolved.map((member) => [member.id, member])).values()];
}
