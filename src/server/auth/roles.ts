/** Organization and content roles, weakest first; null (a guest) ranks below them all. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

/** Whether `role` grants at least `needed`. */
export function atLeast(role: Role | null | undefined, needed: Role): boolean {
  return roleRank(role) >= roleRank(needed);
}

export function strongest(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (roleRank(role) > roleRank(best)) best = role ?? null;
  return best;
}
