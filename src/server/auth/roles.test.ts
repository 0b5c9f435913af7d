import { describe, expect, it } from 'vitest';
import { ROLES, atLeast, roleRank, strongest } from './roles';

describe('roles', () => {
  it('ranks guests below read and admin above everything', () => {
    expect(roleRank(null)).toBe(0);
    expect(roleRank(undefined)).toBe(0);
    expect(ROLES.map(roleRank)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('atLeast compares ranks; a guest reaches nothing', () => {
    expect(atLeast('admin', 'read')).toBe(true);
    expect(atLeast('edit', 'edit')).toBe(true);
    expect(atLeast('comment', 'edit')).toBe(false);
    for (const role of ROLES) expect(atLeast(null, role)).toBe(false);
  });

  it('strongest picks the highest role and null when there is none', () => {
    expect(strongest('read', null, 'review', undefined, 'edit')).toBe('review');
    expect(strongest()).toBeNull();
    expect(strongest(null, undefined)).toBeNull();
  });
});
