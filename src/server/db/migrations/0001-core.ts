import type { Migration } from '../migration';

/**
 * Users, tokens, organizations and everything the server core manages. A space already owns a
 * revision (its page tree as JSON, bodies stored once per content hash) so the content issue can
 * build on it without reshaping spaces.
 */
export const migration0001Core: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        display_name TEXT NOT NULL,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        photo_url TEXT,
        created_at TEXT NOT NULL
      );

      -- Only the SHA-256 of a token is stored: a leaked database does not leak credentials.
      CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        label TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX tokens_user ON tokens(user_id);

      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        email_domains TEXT NOT NULL DEFAULT '[]',
        hostname TEXT UNIQUE,
        type TEXT NOT NULL DEFAULT 'business',
        use_case TEXT,
        community_type TEXT,
        default_role TEXT,
        default_content TEXT,
        sso INTEGER NOT NULL DEFAULT 0,
        ai INTEGER NOT NULL DEFAULT 0,
        invite_links INTEGER NOT NULL DEFAULT 1,
        plan TEXT NOT NULL DEFAULT 'free_2024',
        logo TEXT
      );

      CREATE TABLE members (
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT,
        disabled INTEGER NOT NULL DEFAULT 0,
        sso INTEGER NOT NULL DEFAULT 0,
        joined_at TEXT NOT NULL,
        last_seen_at TEXT,
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE INDEX members_user ON members(user_id);
      CREATE INDEX members_joined ON members(organization_id, joined_at, user_id);
      CREATE INDEX members_seen ON members(organization_id, last_seen_at, user_id);

      CREATE TABLE invites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE teams (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX teams_org ON teams(organization_id, created_at, id);

      CREATE TABLE team_members (
        team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member')),
        added_at TEXT NOT NULL,
        PRIMARY KEY (team_id, user_id)
      );
      CREATE INDEX team_members_user ON team_members(user_id);

      CREATE TABLE collections (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        description TEXT,
        parent_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
        default_level TEXT,
        position REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE INDEX collections_org ON collections(organization_id, created_at, id);
      CREATE INDEX collections_parent ON collections(parent_id);

      CREATE TABLE spaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        emoji TEXT NOT NULL DEFAULT '',
        visibility TEXT NOT NULL DEFAULT 'private',
        edit_mode TEXT NOT NULL DEFAULT 'live',
        parent_id TEXT REFERENCES collections(id) ON DELETE SET NULL,
        default_level TEXT,
        revision_id TEXT NOT NULL,
        share_key TEXT NOT NULL,
        position REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX spaces_org ON spaces(organization_id, deleted_at, created_at, id);
      CREATE INDEX spaces_parent ON spaces(parent_id);

      -- Access granted on one space to a user or a team (beyond the organization role).
      CREATE TABLE space_grants (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        CHECK ((user_id IS NULL) <> (team_id IS NULL))
      );
      CREATE UNIQUE INDEX space_grants_user ON space_grants(space_id, user_id) WHERE user_id IS NOT NULL;
      CREATE UNIQUE INDEX space_grants_team ON space_grants(space_id, team_id) WHERE team_id IS NOT NULL;
      CREATE INDEX space_grants_team_lookup ON space_grants(team_id);
      CREATE INDEX space_grants_user_lookup ON space_grants(user_id);

      -- Markdown bodies keyed by their SHA-256: identical content is stored once.
      CREATE TABLE bodies (
        hash TEXT PRIMARY KEY,
        markdown TEXT NOT NULL
      );

      -- File bytes keyed by their SHA-256, shared by every revision that references them.
      CREATE TABLE blobs (
        hash TEXT PRIMARY KEY,
        bytes BLOB NOT NULL
      );

      -- Immutable revisions; tree is the page tree as JSON, each page naming its body hash.
      CREATE TABLE revisions (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        parents TEXT NOT NULL DEFAULT '[]',
        type TEXT NOT NULL DEFAULT 'edits',
        tree TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX revisions_space ON revisions(space_id);

      CREATE TABLE custom_fields (
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        title TEXT,
        description TEXT,
        placeholder TEXT,
        options TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, name)
      );
      CREATE INDEX custom_fields_order ON custom_fields(organization_id, created_at, name);

      CREATE TABLE space_custom_field_values (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        organization_id TEXT NOT NULL,
        field_name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (space_id, field_name),
        FOREIGN KEY (organization_id, field_name) REFERENCES custom_fields(organization_id, name) ON DELETE CASCADE
      );

      -- Responses stored for Idempotency-Key replays, per user.
      CREATE TABLE idempotency_keys (
        user_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys(created_at);
    `);
  },
};
