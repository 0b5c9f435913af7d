import type { Migration } from '../migration';

/**
 * OpenAPI specifications, their versions and the queue of specs to (re)process. Processing is a
 * row in `openapi_jobs` until it has finished, so a server stopped mid-fetch picks it up again
 * on its next start. A version is stored once per content change (`content_hash`).
 */
export const migration0005OpenApi: Migration = {
  version: 5,
  name: 'openapi',
  up(db) {
    db.exec(`
      CREATE TABLE openapi_specs (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        slug TEXT NOT NULL,
        -- Exactly one source: a URL to fetch, or the specification's text as sent.
        source_url TEXT,
        source_text TEXT,
        processing_state TEXT NOT NULL DEFAULT 'pending'
          CHECK (processing_state IN ('pending', 'progress', 'complete')),
        last_version_id TEXT,
        last_processed_at TEXT,
        last_error_code TEXT CHECK (last_error_code IN ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR')),
        -- JSON array of { message } describing the last failure (NULL after a success).
        last_errors TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (organization_id, slug),
        CHECK ((source_url IS NULL) <> (source_text IS NULL))
      );
      CREATE INDEX openapi_specs_list ON openapi_specs(organization_id, created_at, id);

      CREATE TABLE openapi_spec_versions (
        id TEXT PRIMARY KEY,
        spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        -- The specification exactly as fetched or sent, and its parsed document as JSON text.
        text TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('json', 'yaml')),
        document TEXT NOT NULL,
        -- Where it was fetched from (NULL for a text source).
        source_url TEXT,
        file_name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Versions are listed in insertion (rowid) order, which this index keeps per specification.
      CREATE INDEX openapi_spec_versions_list ON openapi_spec_versions(spec_id);

      -- One row per requested processing; started_at is set while a server works on it.
      CREATE TABLE openapi_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        started_at TEXT
      );
      CREATE INDEX openapi_jobs_spec ON openapi_jobs(spec_id);
    `);
  },
};
