import type { Role } from '../auth/roles';
import { ROLES } from '../auth/roles';
import { generateToken, hashToken } from '../auth/token-hash';
import type { Clock } from '../clock';
import type { Db } from '../db/open-database';
import { isSingleLineText } from '../http/text-schemas';
import { newId } from '../ids';

export class AdminError extends Error {
  override name = 'AdminError';
}

/** Ids end up in URL paths, so they follow the same rule as fixture ids. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

function checkId(id: string | undefined): void {
  if (id !== undefined && !ID.test(id)) {
    throw new AdminError(`--id ${id} must be 1 to 100 letters, digits, "_" or "-"`);
  }
}

/**
 * Self-hosting administration the API itself cannot do: users, tokens, organizations, members.
 * Every function validates its input and fails with a one-line AdminError.
 */
export class AdminCommands {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  createUser(input: { id?: string; displayName: string; email: string }): string {
    checkId(input.id);
    if (!input.displayName.trim() || input.displayName.length > 255)
      throw new AdminError('--name must be 1 to 255 characters');
    if (!isSingleLineText(input.displayName))
      throw new AdminError('--name must not contain control characters');
    if (!/^[^@\s]+@[^@\s]+$/.test(input.email))
      throw new AdminError(`--email ${input.email} is not an e-mail address`);
    if (this.db.prepare('SELECT 1 FROM users WHERE email = ?').get(input.email)) {
      throw new AdminError(`A user with e-mail ${input.email} already exists`);
    }
    const id = input.id ?? newId();
    if (this.db.prepare('SELECT 1 FROM users WHERE id = ?').get(id))
      throw new AdminError(`User ${id} already exists`);
    this.db
      .prepare('INSERT INTO users (id, display_name, email, created_at) VALUES (?, ?, ?, ?)')
      .run(id, input.displayName.trim(), input.email, this.now());
    return id;
  }

  /** Issues a new token for a user; the token is shown once and only its hash is kept. */
  issueToken(userId: string, label = ''): string {
    this.requireUser(userId);
    const token = generateToken();
    this.db
      .prepare('INSERT INTO tokens (hash, user_id, label, created_at) VALUES (?, ?, ?, ?)')
      .run(hashToken(token), userId, label, this.now());
    return token;
  }

  revokeToken(token: string): void {
    const result = this.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL')
      .run(this.now(), hashToken(token));
    if (result.changes === 0) throw new AdminError('No active token matches');
  }

  createOrganization(input: { id?: string; title: string; emailDomains?: string[] }): string {
    checkId(input.id);
    if (input.title.length < 2 || input.title.length > 255)
      throw new AdminError('--title must be 2 to 255 characters');
    if (!isSingleLineText(input.title))
      throw new AdminError('--title must not contain control characters');
    const id = input.id ?? newId();
    if (this.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(id)) {
      throw new AdminError(`Organization ${id} already exists`);
    }
    this.db
      .prepare(
        'INSERT INTO organizations (id, title, created_at, email_domains) VALUES (?, ?, ?, ?)',
      )
      .run(id, input.title, this.now(), JSON.stringify(input.emailDomains ?? []));
    return id;
  }

  addMember(organizationId: string, userId: string, role: string): void {
    const parsed: Role | null = role === 'guest' ? null : (role as Role);
    if (parsed !== null && !ROLES.includes(parsed)) {
      throw new AdminError(`--role must be one of ${[...ROLES, 'guest'].join(', ')}`);
    }
    if (!this.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(organizationId)) {
      throw new AdminError(`Organization ${organizationId} does not exist`);
    }
    this.requireUser(userId);
    this.db
      .prepare(
        `INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role`,
      )
      .run(organizationId, userId, parsed, this.now());
  }

  private requireUser(userId: string): void {
    if (!this.db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) {
      throw new AdminError(`User ${userId} does not exist`);
    }
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
