import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import type { CustomFieldType, CustomFieldValue } from './custom-field-schema';

export interface CustomFieldRow {
  organization_id: string;
  name: string;
  type: CustomFieldType;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  /** JSON array of strings, or null. */
  options: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewCustomField {
  name: string;
  type: CustomFieldType;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  options: string[] | null;
}

/** undefined leaves a column alone; null clears it. */
export interface CustomFieldPatch {
  title?: string | null;
  description?: string | null;
  placeholder?: string | null;
  options?: string[];
}

export interface StoredValue {
  space_id: string;
  field_name: string;
  value: CustomFieldValue;
}

/** Every SQL statement about custom fields and the values spaces hold for them. */
export class CustomFieldQueries {
  constructor(private readonly db: Db) {}

  /** The organization's fields in list order (created_at, then name: unique within the org). */
  listQuery(organizationId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM custom_fields',
      where: ['organization_id = ?'],
      params: [organizationId],
      orderBy: ['created_at', 'name'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['name']],
      scope: `custom-fields:${organizationId}`,
    };
  }

  all(organizationId: string): CustomFieldRow[] {
    return this.db
      .prepare<[string], CustomFieldRow>(
        'SELECT * FROM custom_fields WHERE organization_id = ? ORDER BY created_at, name',
      )
      .all(organizationId);
  }

  get(organizationId: string, name: string): CustomFieldRow | undefined {
    return this.db
      .prepare<[string, string], CustomFieldRow>(
        'SELECT * FROM custom_fields WHERE organization_id = ? AND name = ?',
      )
      .get(organizationId, name);
  }

  insert(organizationId: string, field: NewCustomField, now: string): void {
    this.db
      .prepare(
        `INSERT INTO custom_fields
           (organization_id, name, type, title, description, placeholder, options, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        organizationId,
        field.name,
        field.type,
        field.title,
        field.description,
        field.placeholder,
        field.options ? JSON.stringify(field.options) : null,
        now,
        now,
      );
  }

  update(organizationId: string, name: string, patch: CustomFieldPatch, now: string): void {
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [now];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.description !== undefined) set('description', patch.description);
    if (patch.placeholder !== undefined) set('placeholder', patch.placeholder);
    if (patch.options !== undefined) set('options', JSON.stringify(patch.options));
    this.db
      .prepare(`UPDATE custom_fields SET ${sets.join(', ')} WHERE organization_id = ? AND name = ?`)
      .run(...params, organizationId, name);
  }

  /** Stored values go with the field through the foreign key's ON DELETE CASCADE. */
  delete(organizationId: string, name: string): void {
    this.db
      .prepare('DELETE FROM custom_fields WHERE organization_id = ? AND name = ?')
      .run(organizationId, name);
  }

  /**
   * The values a space holds for fields of `organizationId`. Scoping by organization ignores
   * values left from an organization the space was transferred out of.
   */
  valuesOfSpace(spaceId: string, organizationId: string): StoredValue[] {
    return this.db
      .prepare<[string, string], { space_id: string; field_name: string; value: string }>(
        `SELECT space_id, field_name, value FROM space_custom_field_values
         WHERE space_id = ? AND organization_id = ?`,
      )
      .all(spaceId, organizationId)
      .map(parseStored);
  }

  valuesOfField(organizationId: string, name: string): StoredValue[] {
    return this.db
      .prepare<[string, string], { space_id: string; field_name: string; value: string }>(
        `SELECT space_id, field_name, value FROM space_custom_field_values
         WHERE organization_id = ? AND field_name = ?`,
      )
      .all(organizationId, name)
      .map(parseStored);
  }

  setValue(
    spaceId: string,
    organizationId: string,
    fieldName: string,
    value: CustomFieldValue,
  ): void {
    // The key is (space, field name): a value left from a former organization is taken over.
    this.db
      .prepare(
        `INSERT INTO space_custom_field_values (space_id, organization_id, field_name, value)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (space_id, field_name)
         DO UPDATE SET organization_id = excluded.organization_id, value = excluded.value`,
      )
      .run(spaceId, organizationId, fieldName, JSON.stringify(value));
  }

  removeValue(spaceId: string, fieldName: string): void {
    this.db
      .prepare('DELETE FROM space_custom_field_values WHERE space_id = ? AND field_name = ?')
      .run(spaceId, fieldName);
  }
}

function parseStored(row: { space_id: string; field_name: string; value: string }): StoredValue {
  return {
    space_id: row.space_id,
    field_name: row.field_name,
    value: JSON.parse(row.value) as CustomFieldValue,
  };
}
