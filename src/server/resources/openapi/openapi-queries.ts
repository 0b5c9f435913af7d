import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import { newId } from '../../ids';
import type { ProcessErrorCode, ProcessingState } from './openapi-schema';

export interface OpenApiSpecRow {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  processing_state: ProcessingState;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: ProcessErrorCode | null;
  /** JSON `{ messages, count }` of the last failure. */
  last_errors: string | null;
  created_at: string;
  updated_at: string;
}

/** A version without its (possibly large) text and document. */
export interface OpenApiVersionRow {
  id: string;
  spec_id: string;
  content_hash: string;
  source_url: string | null;
  file_name: string;
  format: 'json' | 'yaml';
  created_at: string;
}

export type SpecSource = { url: string } | { text: string };

export interface NewVersion {
  contentHash: string;
  text: string;
  format: 'json' | 'yaml';
  document: string;
  sourceUrl: string | null;
  fileName: string;
}

/** Everything but the source text, which only processing reads (it can be megabytes). */
const SPEC_COLUMNS = `id, organization_id, slug, source_url, processing_state, last_version_id,
  last_processed_at, last_error_code, last_errors, created_at, updated_at`;
const VERSION_COLUMNS = 'id, spec_id, content_hash, source_url, file_name, format, created_at';

/** Every SQL statement about OpenAPI specifications and their versions. */
export class OpenApiQueries {
  private readonly bySlug;
  private readonly byId;
  private readonly sourceTextStmt;
  private readonly insertSpec;
  private readonly updateSource;
  private readonly deleteSpec;
  private readonly setState;
  private readonly recordSuccess;
  private readonly recordFailure;
  private readonly versionById;
  private readonly latestVersion;
  private readonly insertVersion;
  private readonly versionText;
  private readonly versionDocument;

  constructor(private readonly db: Db) {
    this.bySlug = db.prepare<[string, string], OpenApiSpecRow>(
      `SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE organization_id = ? AND slug = ?`,
    );
    this.byId = db.prepare<[string], OpenApiSpecRow>(
      `SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE id = ?`,
    );
    this.sourceTextStmt = db
      .prepare<[string], string | null>('SELECT source_text FROM openapi_specs WHERE id = ?')
      .pluck();
    this.insertSpec = db.prepare(
      `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, created_at, updated_at)
       VALUES (@id, @organization, @slug, @url, @text, @now, @now)`,
    );
    this.updateSource = db.prepare(
      `UPDATE openapi_specs SET source_url = @url, source_text = @text, processing_state = 'pending',
         updated_at = @now WHERE id = @id`,
    );
    this.deleteSpec = db.prepare<[string]>('DELETE FROM openapi_specs WHERE id = ?');
    this.setState = db.prepare<[ProcessingState, string]>(
      'UPDATE openapi_specs SET processing_state = ? WHERE id = ?',
    );
    this.recordSuccess = db.prepare(
      `UPDATE openapi_specs SET last_version_id = coalesce(@version, last_version_id),
         last_processed_at = @now, last_error_code = NULL, last_errors = NULL WHERE id = @id`,
    );
    this.recordFailure = db.prepare(
      `UPDATE openapi_specs SET last_processed_at = @now, last_error_code = @code,
         last_errors = @errors WHERE id = @id`,
    );
    this.versionById = db.prepare<[string, string], OpenApiVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = ? AND id = ?`,
    );
    this.latestVersion = db.prepare<[string], OpenApiVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = ?
       ORDER BY rowid DESC LIMIT 1`,
    );
    this.insertVersion = db.prepare(
      `INSERT INTO openapi_spec_versions
         (id, spec_id, content_hash, text, format, document, source_url, file_name, created_at)
       VALUES (@id, @spec, @contentHash, @text, @format, @document, @sourceUrl, @fileName, @now)`,
    );
    this.versionText = db
      .prepare<[string], string>('SELECT text FROM openapi_spec_versions WHERE id = ?')
      .pluck();
    this.versionDocument = db
      .prepare<[string], string>('SELECT document FROM openapi_spec_versions WHERE id = ?')
      .pluck();
  }

  /** The organization's specifications, oldest first (id breaks ties). */
  listQuery(organizationId: string): KeysetQuery {
    return {
      from: `SELECT ${SPEC_COLUMNS} FROM openapi_specs`,
      where: ['organization_id = ?'],
      params: [organizationId],
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `openapi-specs:${organizationId}`,
    };
  }

  /**
   * A specification's versions, newest first. Versions are only ever appended, so their rowid
   * orders them even when two share a millisecond.
   */
  versionsQuery(specId: string): KeysetQuery {
    return {
      from: `SELECT ${VERSION_COLUMNS}, rowid AS seq FROM openapi_spec_versions`,
      where: ['spec_id = ?'],
      params: [specId],
      orderBy: ['rowid'],
      direction: 'DESC',
      keyOf: (row) => [row['seq']],
      scope: `openapi-versions:${specId}`,
    };
  }

  get(organizationId: string, slug: string): OpenApiSpecRow | undefined {
    return this.bySlug.get(organizationId, slug);
  }

  getById(id: string): OpenApiSpecRow | undefined {
    return this.byId.get(id);
  }

  /** The text a specification was given as (null for a URL source). */
  sourceText(id: string): string | null {
    return this.sourceTextStmt.get(id) ?? null;
  }

  create(organizationId: string, slug: string, source: SpecSource, now: string): string {
    const id = newId();
    this.insertSpec.run({ id, organization: organizationId, slug, ...sourceColumns(source), now });
    return id;
  }

  /** A new source: the specification is pending until it has been processed again. */
  setSource(id: string, source: SpecSource, now: string): void {
    this.updateSource.run({ id, ...sourceColumns(source), now });
  }

  delete(id: string): void {
    this.deleteSpec.run(id);
  }

  setProcessingState(id: string, state: ProcessingState): void {
    this.setState.run(state, id);
  }

  /**
   * Records a successful processing: a new version when the content differs from the latest
   * one's (by hash), the error code cleared. Returns the new version's id, if one was made.
   */
  recordVersion(specId: string, version: NewVersion, now: string): string | undefined {
    return this.db.transaction(() => {
      if (!this.byId.get(specId)) return undefined; // deleted while it was being processed
      const latest = this.latestVersion.get(specId);
      const changed = latest?.content_hash !== version.contentHash;
      const id = changed ? newId() : undefined;
      if (id) this.insertVersion.run({ id, spec: specId, ...version, now });
      this.recordSuccess.run({ id: specId, version: id ?? null, now });
      return id;
    })();
  }

  /** Records a failed processing; the last good version stays the latest. */
  recordError(specId: string, code: ProcessErrorCode, errors: ErrorList, now: string): void {
    this.recordFailure.run({ id: specId, code, errors: JSON.stringify(errors), now });
  }

  version(specId: string, versionId: string): OpenApiVersionRow | undefined {
    return this.versionById.get(specId, versionId);
  }

  latest(specId: string): OpenApiVersionRow | undefined {
    return this.latestVersion.get(specId);
  }

  text(versionId: string): string {
    return this.versionText.get(versionId) ?? '';
  }

  document(versionId: string): string {
    return this.versionDocument.get(versionId) ?? '{}';
  }
}

/** What a failure stored: its first messages and how many problems there were. */
export interface ErrorList {
  messages: string[];
  count: number;
}

function sourceColumns(source: SpecSource): { url: string | null; text: string | null } {
  return 'url' in source ? { url: source.url, text: null } : { url: null, text: source.text };
}
