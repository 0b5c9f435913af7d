import { describe, expect, it } from 'vitest';
import { resolveReviewer, resolveReviewers } from './resolve-reviewers';

const MEMBERS = [
  { id: 'u-ana', displayName: 'Ana Ruiz', email: 'ana@acme.test' },
  { id: 'u-ana2', displayName: 'Ana Ruiz', email: 'ana.ruiz@acme.test' },
  { id: 'u-bo', displayName: 'Bo Lind', email: 'Bo@Acme.test' },
  { id: 'u-cy', displayName: 'Cy', email: null },
];

describe('resolveReviewer', () => {
  it('takes a user id, an email or a display name, case-insensitively', () => {
    expect(resolveReviewer('u-cy', MEMBERS).id).toBe('u-cy');
    expect(resolveReviewer(' bo@acme.TEST ', MEMBERS).id).toBe('u-bo');
    expect(resolveReviewer('bo lind', MEMBERS).id).toBe('u-bo');
    expect(resolveReviewer('ana.ruiz@acme.test', MEMBERS).id).toBe('u-ana2');
  });

  it('takes a first name when no display name matches and only one member has it', () => {
    expect(resolveReviewer('bo', MEMBERS).id).toBe('u-bo');
    expect(resolveReviewer('Cy', MEMBERS).id).toBe('u-cy');
    expect(() => resolveReviewer('Ana', MEMBERS)).toThrow(
      '"Ana" names 2 members (ana.ruiz@acme.test, ana@acme.test): give an email or a user id',
    );
    expect(() => resolveReviewer('Lind', MEMBERS)).toThrow('nobody in the organization is "Lind"');
  });

  it('says when nobody or several people match', () => {
    expect(() => resolveReviewer('Zed', MEMBERS)).toThrow(
      'nobody in the organization is "Zed" (give a member\'s user id, email or name)',
    );
    expect(() => resolveReviewer('ana ruiz', MEMBERS)).toThrow(
      '"ana ruiz" names 2 members (ana.ruiz@acme.test, ana@acme.test): give an email or a user id',
    );
  });

  it('resolves every name or none, each member once', () => {
    expect(resolveReviewers(['u-bo', 'Bo Lind', 'Cy'], MEMBERS).map((m) => m.id)).toEqual([
      'u-bo',
      'u-cy',
    ]);
    expect(() => resolveReviewers(['u-bo', 'Zed'], MEMBERS)).toThrow('"Zed"');
  });
});
