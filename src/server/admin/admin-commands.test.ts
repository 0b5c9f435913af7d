import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/token-hash';
import { openDatabase, type Db } from '../db/open-database';
import { AdminCommands, AdminError } from './admin-commands';

describe('AdminCommands', () => {
  let dir: string;
  let db: Db;
  let admin: AdminCommands;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-admin-'));
    db = openDatabase(join(dir, 'a.db'));
    admin = new AdminCommands(db, { now: () => new Date('2025-10-20T09:00:00.000Z') });
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates users with a generated or given id', () => {
    const generated = admin.createUser({ displayName: ' Ada ', email: 'ada@example.test' });
    expect(generated).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(admin.createUser({ id: 'u-bob', displayName: 'Bob', email: 'bob@example.test' })).toBe(
      'u-bob',
    );
    expect(db.prepare('SELECT display_name FROM users WHERE id = ?').pluck().get(generated)).toBe(
      'Ada',
    );
  });

  it('rejects bad or duplicate users with one line', () => {
    admin.createUser({ id: 'u-ada', displayName: 'Ada', email: 'ada@example.test' });
    const cases: [Parameters<AdminCommands['createUser']>[0], RegExp][] = [
      [{ displayName: 'Ada', email: 'ADA@example.test' }, /already exists/],
      [{ id: 'u-ada', displayName: 'Other', email: 'other@example.test' }, /User u-ada already/],
      [{ displayName: 'X', email: 'not-an-email' }, /is not an e-mail address/],
      [{ displayName: '  ', email: 'x@example.test' }, /--name must be 1 to 255/],
      [{ displayName: 'Bell\u0007', email: 'x@example.test' }, /--name must not contain control/],
      [{ id: 'bad/id', displayName: 'X', email: 'x@example.test' }, /--id bad\/id must be/],
    ];
    for (const [input, message] of cases) {
      expect(() => admin.createUser(input)).toThrow(AdminError);
      expect(() => admin.createUser(input)).toThrow(message);
    }
  });

  it('issues tokens stored only as hashes, and revokes them once', () => {
    const user = admin.createUser({ displayName: 'Ada', email: 'ada@example.test' });
    const token = admin.issueToken(user, 'laptop');
    expect(token).toMatch(/^qt_/);
    const rows = db.prepare('SELECT * FROM tokens').all();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows).toMatchObject([{ hash: hashToken(token), user_id: user, label: 'laptop' }]);

    admin.revokeToken(token);
    expect(db.prepare('SELECT revoked_at FROM tokens').pluck().get()).toBe(
      '2025-10-20T09:00:00.000Z',
    );
    expect(() => admin.revokeToken(token)).toThrow(/No active token matches/);
    expect(() => admin.issueToken('u-ghost')).toThrow(/User u-ghost does not exist/);
  });

  it('creates organizations and adds members with any role, guest included', () => {
    const org = admin.createOrganization({ title: 'Acme', emailDomains: ['acme.test'] });
    const user = admin.createUser({ displayName: 'Ada', email: 'ada@acme.test' });
    admin.addMember(org, user, 'guest');
    expect(db.prepare('SELECT role FROM members').pluck().get()).toBeNull();
    // Adding again changes the role rather than failing.
    admin.addMember(org, user, 'admin');
    expect(db.prepare('SELECT role FROM members').all()).toEqual([{ role: 'admin' }]);
    expect(db.prepare('SELECT email_domains FROM organizations').pluck().get()).toBe(
      '["acme.test"]',
    );
  });

  it('rejects bad organizations and memberships with one line', () => {
    admin.createOrganization({ id: 'o-1', title: 'Acme' });
    admin.createUser({ id: 'u-1', displayName: 'Ada', email: 'ada@example.test' });
    expect(() => admin.createOrganization({ id: 'o-1', title: 'Again' })).toThrow(
      /Organization o-1 already exists/,
    );
    expect(() => admin.createOrganization({ title: 'A' })).toThrow(/--title must be 2 to 255/);
    expect(() => admin.createOrganization({ title: 'Acme\u0000' })).toThrow(
      /--title must not contain control characters/,
    );
    expect(() => admin.addMember('o-1', 'u-1', 'owner')).toThrow(/--role must be one of read/);
    expect(() => admin.addMember('o-ghost', 'u-1', 'read')).toThrow(/o-ghost does not exist/);
    expect(() => admin.addMember('o-1', 'u-ghost', 'read')).toThrow(/u-ghost does not exist/);
    expect(db.prepare('SELECT count(*) FROM members').pluck().get()).toBe(0);
  });
});
