import type { Migration } from '../migration';

/**
 * SAML providers (single sign-on) and translation settings: two organization-level resources.
 * A provider's default team is dropped, not the provider, when that team is deleted.
 */
export const migration0003SsoTranslations: Migration = {
  version: 3,
  name: 'sso-translations',
  up(db) {
    db.exec(`
      CREATE TABLE saml_providers (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        sso_url TEXT,
        entity_id TEXT,
        certificate TEXT,
        default_team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
        -- NULL: members signing in through the provider join as guests.
        default_role TEXT CHECK (default_role IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX saml_providers_list ON saml_providers(organization_id, created_at, id);

      CREATE TABLE translation_settings (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        -- JSON array of language codes, without duplicates.
        languages TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX translation_settings_list ON translation_settings(organization_id, created_at, id);
    `);
  },
};
