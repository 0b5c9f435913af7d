import type { DefaultContent } from './default-content';
import type { Role } from '../../auth/roles';
import type { Db } from '../../db/open-database';

export interface OrganizationRow {
  id: string;
  title: string;
  created_at: string;
  email_domains: string;
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: Role | null;
  default_content: string | null;
  sso: number;
  ai: number;
  invite_links: number;
  plan: string;
  logo: string | null;
}

export interface InviteRow {
  id: string;
  organization_id: string;
  role: Role;
  created_at: string;
}

export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: DefaultContent | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/** Every SQL statement about organizations and their link invites. */
export class OrganizationQueries {
  /** Prepared once: `get` runs on every organization read, and compiling it cost more than running it. */
  private readonly getStmt;

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string], OrganizationRow>(
      'SELECT * FROM organizations WHERE id = ?',
    );
  }

  get(id: string): OrganizationRow | undefined {
    return this.getStmt.get(id);
  }

  /** Organizations whose e-mail domains include `domain` (case-insensitive). */
  byEmailDomain(domain: string): OrganizationRow[] {
    return this.db
      .prepare<[string], OrganizationRow>(
        `SELECT o.* FROM organizations o
         WHERE EXISTS (SELECT 1 FROM json_each(o.email_domains) d WHERE lower(d.value) = lower(?))
         ORDER BY o.created_at, o.id`,
      )
      .all(domain);
  }

  hostnameTaken(hostname: string, exceptId: string): boolean {
    return !!this.db
      .prepare('SELECT 1 FROM organizations WHERE hostname = ? AND id <> ?')
      .get(hostname, exceptId);
  }

  update(id: string, patch: OrganizationPatch): void {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.emailDomains !== undefined) set('email_domains', JSON.stringify(patch.emailDomains));
    if (patch.hostname !== undefined) set('hostname', patch.hostname);
    if (patch.defaultRole !== undefined) set('default_role', patch.defaultRole);
    if (patch.defaultContent !== undefined) {
      set(
        'default_content',
        patch.defaultContent === null ? null : JSON.stringify(patch.defaultContent),
      );
    }
    if (patch.logo !== undefined) set('logo', patch.logo);
    if (patch.sso !== undefined) set('sso', patch.sso ? 1 : 0);
    if (patch.ai !== undefined) set('ai', patch.ai ? 1 : 0);
    if (patch.inviteLinks !== undefined) set('invite_links', patch.inviteLinks ? 1 : 0);
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE organizations SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  getInvite(organizationId: string, inviteId: string): InviteRow | undefined {
    return this.db
      .prepare<[string, string], InviteRow>(
        'SELECT * FROM invites WHERE organization_id = ? AND id = ?',
      )
      .get(organizationId, inviteId);
  }

  /** An invite is redundant when an older invite of the same organization grants the same role. */
  inviteIsRedundant(invite: InviteRow): boolean {
    return !!this.db
      .prepare(
        `SELECT 1 FROM invites WHERE organization_id = ? AND role = ? AND id <> ?
         AND (created_at < ? OR (created_at = ? AND id < ?))`,
      )
      .get(
        invite.organization_id,
        invite.role,
        invite.id,
        invite.created_at,
        invite.created_at,
        invite.id,
      );
  }

  updateInvite(inviteId: string, role: Role): void {
    this.db.prepare('UPDATE invites SET role = ? WHERE id = ?').run(role, inviteId);
  }

  deleteInvite(inviteId: string): void {
    this.db.prepare('DELETE FROM invites WHERE id = ?').run(inviteId);
  }
}
