import { describe, expect, it } from 'vitest';
import type { SpaceSyncResult } from '../../../shared/contract/spaces';
import { outcomeText, syncedFolderLabel } from './sync-text';

const SPACE: SpaceSyncResult = {
  id: 's-handbook',
  title: 'Handbook',
  outcome: 'removed',
  revision: null,
  filesWritten: 0,
  filesRemoved: 0,
  conflicts: 0,
  problems: [],
};

describe('sync lines', () => {
  it('names a space by its id, a checkout as checked out (its key means nothing to a user)', () => {
    expect(syncedFolderLabel(SPACE)).toBe('Handbook (s-handbook)');
    const checkout = {
      ...SPACE,
      id: 'checkout:s-handbook:cr1',
      title: 'Handbook #4',
      checkout: true,
    };
    expect(syncedFolderLabel(checkout as SpaceSyncResult)).toBe('Handbook #4 (checked out)');
  });

  it('says a checkout closed on the server is gone, not that a space was removed', () => {
    expect(outcomeText(SPACE)).toBe('removed on the server; its unedited files were removed');
    expect(outcomeText({ ...SPACE, checkout: true })).toBe(
      'merged or archived on the server, or its folder deleted: the checkout is gone',
    );
  });
});
