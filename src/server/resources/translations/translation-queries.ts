import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import { newId } from '../../ids';

export interface TranslationSettingsRow {
  id: string;
  organization_id: string;
  title: string;
  /** JSON array of language codes. */
  languages: string;
  created_at: string;
  updated_at: string;
}

/** Every SQL statement about translation settings. */
export class TranslationQueries {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string, string], TranslationSettingsRow>(
      'SELECT * FROM translation_settings WHERE id = ? AND organization_id = ?',
    );
    this.insertStmt = db.prepare<[string, string, string, string, string, string]>(
      `INSERT INTO translation_settings (id, organization_id, title, languages, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.updateStmt = db.prepare<[string, string, string, string]>(
      'UPDATE translation_settings SET title = ?, languages = ?, updated_at = ? WHERE id = ?',
    );
    this.deleteStmt = db.prepare<[string]>('DELETE FROM translation_settings WHERE id = ?');
  }

  /** The organization's settings, oldest first (id breaks ties: the order is total). */
  listQuery(organizationId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM translation_settings',
      where: ['organization_id = ?'],
      params: [organizationId],
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `translation-settings:${organizationId}`,
    };
  }

  get(organizationId: string, id: string): TranslationSettingsRow | undefined {
    return this.getStmt.get(id, organizationId);
  }

  create(organizationId: string, title: string, languages: readonly string[], now: string): string {
    const id = newId();
    this.insertStmt.run(id, organizationId, title, JSON.stringify(languages), now, now);
    return id;
  }

  update(id: string, title: string, languages: readonly string[], now: string): void {
    this.updateStmt.run(title, JSON.stringify(languages), now, id);
  }

  delete(id: string): void {
    this.deleteStmt.run(id);
  }
}
