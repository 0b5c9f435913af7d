import { Type } from '@sinclair/typebox';
import { SingleLineText } from '../../http/text-schemas';
import { PageQuerySchema, UserSchema } from '../../http/common-schemas';

const IdParam = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: IdParam });
export const ChangeRequestParams = Type.Object({ spaceId: IdParam, changeRequestId: IdParam });
export const ReviewParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: IdParam,
  reviewId: IdParam,
});
export const ReviewerParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: IdParam,
  userId: IdParam,
});

const literals = <T extends string>(values: readonly T[], options = {}) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );

/** The published `subject` limit (ChangeRequestSubject, 0 to 100). */
export const SubjectSchema = SingleLineText({ maxLength: 100 });

export const ListChangeRequestsQuery = Type.Object({
  ...PageQuerySchema,
  status: Type.Optional(
    literals(['draft', 'open', 'archived', 'merged'] as const, { default: 'open' }),
  ),
  creator: Type.Optional(IdParam),
  contributor: Type.Optional(IdParam),
  requestedReviewer: Type.Optional(IdParam),
  orderBy: Type.Optional(literals(['updatedAt', 'createdAt'] as const, { default: 'updatedAt' })),
});

export const CreateChangeRequestBody = Type.Object({
  subject: Type.Optional(SubjectSchema),
  /** Published, but this server has no templates: refused rather than silently ignored. */
  template: Type.Optional(Type.Unknown()),
});

export const UpdateChangeRequestBody = Type.Object({
  subject: Type.Optional(SubjectSchema),
  /** `merged` is reached only by merging. */
  status: Type.Optional(literals(['draft', 'open', 'archived'] as const)),
});

export const MergeConflictSchema = Type.Object({
  /** `content`, `metadata`, `delete-edit`, `move`, `parent-deleted`, `slug` or `file`. */
  reason: Type.String(),
  /** The page concerned (page conflicts). */
  page: Type.Optional(Type.Object({ id: Type.String(), title: Type.String() })),
  /** The file concerned (file conflicts). */
  file: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() })),
  detail: Type.String(),
});

/** `{ revision, result }`; with conflicts `revision` is the unchanged one and nothing moved. */
export const MergeResultSchema = Type.Object({
  revision: Type.String(),
  result: literals(['merge', 'conflicts'] as const),
  conflicts: Type.Optional(Type.Array(MergeConflictSchema)),
});
export const UpdateResultSchema = Type.Object({
  revision: Type.String(),
  result: literals(['update', 'conflicts'] as const),
  conflicts: Type.Optional(Type.Array(MergeConflictSchema)),
});

export const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean()),
  page: Type.Optional(IdParam),
});
export const PdfResponse = Type.Object({ url: Type.String() });

export const PdfDownloadParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: IdParam,
  revisionId: IdParam,
});
export const PdfDownloadQuery = Type.Object({
  page: Type.Optional(IdParam),
  only: Type.Optional(Type.Boolean()),
  expires: Type.Integer({ minimum: 0 }),
  sig: Type.String({ minLength: 1, maxLength: 128 }),
});

export const ReviewStatusSchema = literals(['approved', 'changes-requested'] as const);

export const ReviewSchema = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String(),
  reviewer: UserSchema,
  status: ReviewStatusSchema,
  outdated: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  urls: Type.Object({ location: Type.String() }),
});

const FormatSchema = literals(['markdown', 'document'] as const);

export const ListReviewsQuery = Type.Object({
  ...PageQuerySchema,
  format: Type.Optional(FormatSchema),
  outdated: Type.Optional(Type.Boolean()),
});
export const ReviewQuery = Type.Object({ format: Type.Optional(FormatSchema) });

export const SubmitReviewBody = Type.Object({
  status: ReviewStatusSchema,
  /** Posted as a comment on the change request. */
  comment: Type.Optional(
    Type.Union([
      Type.Object({ markdown: Type.String({ minLength: 1, maxLength: 100_000 }) }),
      Type.Object({ document: Type.Unknown() }),
      Type.Object({}),
    ]),
  ),
});

export const RequestedReviewerSchema = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  kind: Type.Literal('user'),
  user: UserSchema,
  revision: Type.String(),
  requestedBy: UserSchema,
  createdAt: Type.String(),
});

export const RequestReviewersBody = Type.Object({
  users: Type.Array(IdParam, { minItems: 1, maxItems: 100 }),
  subject: Type.Optional(SubjectSchema),
  description: Type.Optional(Type.Unknown()),
});
export const RequestReviewersResponse = Type.Object({
  users: Type.Array(RequestedReviewerSchema),
});
