import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import type { Role } from '../../auth/roles';
import { newId } from '../../ids';

export interface SamlProviderRow {
  id: string;
  organization_id: string;
  label: string;
  sso_url: string | null;
  entity_id: string | null;
  certificate: string | null;
  default_team_id: string | null;
  default_role: Role | null;
  created_at: string;
  updated_at: string;
}

/** Every column a provider's configuration holds; undefined in a patch leaves it alone. */
export interface SamlProviderValues {
  label: string;
  ssoUrl: string | null;
  entityId: string | null;
  certificate: string | null;
  defaultTeamId: string | null;
  defaultRole: Role | null;
}

/** A provider can sign people in only once all three of these are known. */
export const ACTIVE_CONDITION =
  "coalesce(sso_url, '') <> '' AND coalesce(entity_id, '') <> '' AND coalesce(certificate, '') <> ''";

/** Every SQL statement about SAML providers. */
export class SamlQueries {
  private readonly getStmt;
  private readonly byIdStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly loginsStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string, string], SamlProviderRow>(
      'SELECT * FROM saml_providers WHERE id = ? AND organization_id = ?',
    );
    this.byIdStmt = db.prepare<[string], SamlProviderRow>(
      'SELECT * FROM saml_providers WHERE id = ?',
    );
    this.insertStmt = db.prepare(
      `INSERT INTO saml_providers
         (id, organization_id, label, sso_url, entity_id, certificate, default_team_id,
          default_role, created_at, updated_at)
       VALUES (@id, @organizationId, @label, @ssoUrl, @entityId, @certificate, @defaultTeamId,
          @defaultRole, @now, @now)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE saml_providers SET label = @label, sso_url = @ssoUrl, entity_id = @entityId,
         certificate = @certificate, default_team_id = @defaultTeamId,
         default_role = @defaultRole, updated_at = @now
       WHERE id = @id`,
    );
    this.deleteStmt = db.prepare<[string]>('DELETE FROM saml_providers WHERE id = ?');
    this.loginsStmt = db.prepare<[string], SamlProviderRow>(
      `SELECT * FROM saml_providers WHERE organization_id = ? AND ${ACTIVE_CONDITION}
       ORDER BY created_at, id`,
    );
  }

  /** The organization's providers, oldest first (id breaks ties: the order is total). */
  listQuery(organizationId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM saml_providers',
      where: ['organization_id = ?'],
      params: [organizationId],
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `saml-providers:${organizationId}`,
    };
  }

  get(organizationId: string, providerId: string): SamlProviderRow | undefined {
    return this.getStmt.get(providerId, organizationId);
  }

  /** A provider by id alone, for the public service-provider addresses (no caller, no org). */
  byId(providerId: string): SamlProviderRow | undefined {
    return this.byIdStmt.get(providerId);
  }

  /** The providers members can sign in with (active ones), oldest first. */
  activeProviders(organizationId: string): SamlProviderRow[] {
    return this.loginsStmt.all(organizationId);
  }

  create(organizationId: string, values: SamlProviderValues, now: string): string {
    const id = newId();
    this.insertStmt.run({ id, organizationId, ...values, now });
    return id;
  }

  update(providerId: string, values: SamlProviderValues, now: string): void {
    this.updateStmt.run({ id: providerId, ...values, now });
  }

  delete(providerId: string): void {
    this.deleteStmt.run(providerId);
  }
}
