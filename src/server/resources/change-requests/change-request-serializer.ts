import { Type } from '@sinclair/typebox';
import { UserSchema } from '../../http/common-schemas';
import type { Urls } from '../../http/urls';
import { serializeUser, type UserRow } from '../users/user-serializer';
import type {
  ChangeRequestQueries,
  ChangeRequestRow,
  RequestedReviewerRow,
  ReviewRow,
} from './change-request-queries';

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
    ...(row.revision_merged_ancestor
      ? { revisionMergedAncestor: row.revision_merged_ancestor }
      : {}),
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    comments: view.openComments,
    outdated: isOutdated(row, view.spaceRevision),
    urls: {
      app: urls.app(`/s/${row.space_id}/~/changes/${row.number}`),
      location: urls.api(`/spaces/${row.space_id}/change-requests/${row.id}`),
    },
  };
}

export function serializeReview(
  row: ReviewRow,
  reviewer: UserRow | undefined,
  spaceId: string,
  urls: Urls,
) {
  return {
    object: 'change-request-review' as const,
    id: row.id,
    revision: row.revision_id,
    reviewer: reviewer ? serializeUser(reviewer, urls) : deletedUser(row.reviewer_id, urls),
    status: row.status,
    outdated: row.outdated === 1,
    createdAt: row.created_at,
    // Reviews are never edited; a new submission is a new review.
    updatedAt: row.created_at,
    urls: {
      location: urls.api(
        `/spaces/${spaceId}/change-requests/${row.change_request_id}/reviews/${row.id}`,
      ),
    },
  };
}

export interface RequestedReviewerView {
  row: RequestedReviewerRow;
  user: UserRow | undefined;
  /**
   * Who asked. The requested-reviewers table keeps no requester, so callers pass the change
   * request's creator (the one who normally asks for reviews).
   */
  requestedBy: UserRow | undefined;
  /** The revision under review: the table keeps none, so this is the change request's current one. */
  revision: string;
}

export function serializeRequestedReviewer(view: RequestedReviewerView, urls: Urls) {
  return {
    object: 'change-request-requested-reviewer' as const,
    kind: 'user' as const,
    user: view.user ? serializeUser(view.user, urls) : deletedUser(view.row.user_id, urls),
    revision: view.revision,
    requestedBy: view.requestedBy
      ? serializeUser(view.requestedBy, urls)
      : deletedUser('unknown', urls),
    createdAt: view.row.requested_at,
  };
}

/** A user row that no longer exists (foreign keys cascade, so only during a race). */
function deletedUser(id: string, urls: Urls) {
  return serializeUser({ id, display_name: 'Deleted user', email: '', photo_url: null }, urls);
}

/** The ChangeRequest resource as it is now (its users, main's revision, open comments). */
export function presentChangeRequest(
  queries: ChangeRequestQueries,
  row: ChangeRequestRow,
  urls: Urls,
) {
  return serializeChangeRequest(
    {
      row,
      createdBy: queries.user(row.created_by),
      mergedBy: row.merged_by ? queries.user(row.merged_by) : undefined,
      spaceRevision: queries.spaceRevision(row.space_id) ?? '',
      openComments: queries.openComments(row.id),
    },
    urls,
  );
}
