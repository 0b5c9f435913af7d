import { Type } from '@sinclair/typebox';
import { UserSchema } from '../../http/common-schemas';
import type { Urls } from '../../http/urls';
import { serializeUser, type UserRow } from '../users/user-serializer';
import type { ChangeRequestRow } from './change-request-queries';

export const ChangeRequestStatusSchema = Type.Union([
  Type.Literal('draft'),
  Type.Literal('open'),
  Type.Literal('archived'),
  Type.Literal('merged'),
]);

export const ChangeRequestSchema = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Integer(),
  status: ChangeRequestStatusSchema,
  subject: Type.String(),
  createdBy: Type.Optional(UserSchema),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  mergedBy: Type.Optional(UserSchema),
  mergedAt: Type.Optional(Type.String()),
  space: Type.String(),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  comments: Type.Integer(),
  outdated: Type.Boolean(),
  urls: Type.Object({ app: Type.String(), location: Type.String() }),
});

export interface ChangeRequestView {
  row: ChangeRequestRow;
  createdBy: UserRow | undefined;
  mergedBy: UserRow | undefined;
  /** The space's live revision, to tell whether the change request is outdated. */
  spaceRevision: string;
  openComments: number;
}

/**
 * A change request is outdated when main has moved past the revision it is based on: its initial
 * revision, or the main revision it was last updated from.
 */
export function isOutdated(row: ChangeRequestRow, spaceRevision: string): boolean {
  if (row.status === 'merged') return false;
  return (row.revision_merged_ancestor ?? row.revision_initial) !== spaceRevision;
}

export function serializeChangeRequest(view: ChangeRequestView, urls: Urls) {
  const { row } = view;
  return {
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    ...(view.createdBy ? { createdBy: serializeUser(view.createdBy, urls) } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(view.mergedBy ? { mergedBy: serializeUser(view.mergedBy, urls) } : {}),
    ...(row.merged_at ? { mergedAt: row.merged_at } : {}),
    space: row.space_id,
    revision: row.revision_id,
    revisionInitial: row.revision_initial,
    ...(row.revision_merged_ancestor ? { revisionMergedAncestor: row.revision_merged_ancestor } : {}),
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    comments: view.openComments,
    outdated: isOutdated(row, view.spaceRevision),
    urls: {
      app: urls.app(`/s/${row.space_id}/~/changes/${row.number}`),
      location: urls.api(`/spaces/${row.space_id}/change-requests/${row.id}`),
    },
  };
}
