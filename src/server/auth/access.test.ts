import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testFixture } from '../../../test/support/test-fixture';
import { openDatabase, type Db } from '../db/open-database';
import { loadFixture } from '../fixture/load-fixture';
import { ApiError } from '../http/api-error';
import { Access } from './access';

let dir: string;
let db: Db;
let access: Access;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-access-'));
  db = openDatabase(join(dir, 'server.db'));
  loadFixture(db, testFixture(), { now: () => new Date('2026-01-01T00:00:00.000Z') });
  access = new Access(db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function statusOf(fn: () => unknown): number | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe('Access', () => {
  it('answers 404 alike for a missing organization and one the caller is not in', () => {
    const missing = (() => {
      try {
        access.requireOrg('u-eve', 'o-nope');
      } catch (error) {
        return error as ApiError;
      }
    })();
    const foreign = (() => {
      try {
        access.requireOrg('u-eve', 'o-acme');
      } catch (error) {
        return error as ApiError;
      }
    })();
    expect(missing?.status).toBe(404);
    expect(foreign?.status).toBe(404);
    expect(foreign?.message).toBe('Organization o-acme not found');
    expect(missing?.message).toBe('Organization o-nope not found');
  });

  it('answers 403 when the organization role is too low, and passes at or above it', () => {
    expect(statusOf(() => access.requireOrg('u-bob', 'o-acme', 'admin'))).toBe(403);
    expect(statusOf(() => access.requireOrg('u-bob', 'o-acme', 'create'))).toBe('ok');
    expect(statusOf(() => access.requireOrg('u-gus', 'o-acme', 'read'))).toBe(403);
    expect(access.requireOrg('u-gus', 'o-acme')).toEqual({ organizationId: 'o-acme', role: null });
  });

  it('treats a disabled member as not a member (404)', () => {
    db.prepare("UPDATE members SET disabled = 1 WHERE user_id = 'u-cara'").run();
    try {
      expect(statusOf(() => access.requireOrg('u-cara', 'o-acme'))).toBe(404);
      expect(statusOf(() => access.requireSpace('u-cara', 's-handbook'))).toBe(404);
    } finally {
      db.prepare("UPDATE members SET disabled = 0 WHERE user_id = 'u-cara'").run();
    }
  });

  it('combines organization role, space default and user or team grants', () => {
    // Gus is a guest: he sees only the space he was granted.
    expect(access.requireSpace('u-gus', 's-handbook', 'comment').role).toBe('comment');
    expect(statusOf(() => access.requireSpace('u-gus', 's-handbook', 'edit'))).toBe(403);
    expect(statusOf(() => access.requireSpace('u-gus', 's-secret'))).toBe(404);
    // Dora edits through her organization role and the Writers team grant alike.
    expect(access.requireSpace('u-dora', 's-handbook', 'edit').role).toBe('edit');
    // Cara reads; Eve belongs elsewhere.
    expect(statusOf(() => access.requireSpace('u-cara', 's-handbook', 'edit'))).toBe(403);
    expect(statusOf(() => access.requireSpace('u-eve', 's-handbook'))).toBe(404);
    expect(statusOf(() => access.requireSpace('u-ada', 's-nope'))).toBe(404);
  });

  it('hides deleted spaces unless asked for them', () => {
    db.prepare(
      "UPDATE spaces SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = 's-secret'",
    ).run();
    try {
      expect(statusOf(() => access.requireSpace('u-ada', 's-secret'))).toBe(404);
      expect(access.requireSpace('u-ada', 's-secret', 'admin', { includeDeleted: true }).role).toBe(
        'admin',
      );
    } finally {
      db.prepare("UPDATE spaces SET deleted_at = NULL WHERE id = 's-secret'").run();
    }
  });
});
