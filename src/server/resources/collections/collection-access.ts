import type { Access } from '../../auth/access';
import { atLeast, type Role } from '../../auth/roles';
import { forbidden, notFound } from '../../http/api-error';
import type { CollectionQueries, CollectionRow } from './collection-queries';

export interface CollectionAccess {
  row: CollectionRow;
  /** The caller's effective role on the collection (null: a guest, who sees no collection). */
  role: Role | null;
}

/**
 * A member's role on a collection is their organization role; guests see only spaces granted to
 * them, never collections. The collection's `defaultLevel` is stored and returned but not applied
 * here: it is a default for the content inside, which space access would have to inherit.
 */
export function collectionRole(orgRole: Role | null): Role | null {
  return orgRole;
}

/** Loads a collection the caller can see (404 otherwise) and checks their role (403 when too low). */
export function requireCollection(
  access: Access,
  queries: CollectionQueries,
  userId: string,
  collectionId: string,
  needed: Role = 'read',
): CollectionAccess {
  const row = queries.get(collectionId);
  const membership = row ? access.membership(userId, row.organization_id) : null;
  if (!row || !membership) throw notFound(`Collection ${collectionId}`);
  const role = collectionRole(membership.role);
  if (!atLeast(role, needed)) {
    throw forbidden(`This needs the ${needed} role on collection ${collectionId}`);
  }
  return { row, role };
}
