import { Type } from '@sinclair/typebox';
import { SingleLineText } from '../../http/text-schemas';
import { NullableRoleSchema, Nullable, PositionSchema } from '../../http/common-schemas';

export const VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const;
export const VisibilitySchema = Type.Union(VISIBILITIES.map((value) => Type.Literal(value)));
export const EditModeSchema = Type.Union([Type.Literal('live'), Type.Literal('locked')]);

export const SpaceSchema = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: VisibilitySchema,
  createdAt: Type.String(),
  updatedAt: Type.String(),
  deletedAt: Type.Optional(Type.String()),
  editMode: Type.Optional(EditModeSchema),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  revision: Type.String(),
  defaultLevel: NullableRoleSchema,
  comments: Type.Integer(),
  changeRequests: Type.Integer(),
  changeRequestsOpen: Type.Integer(),
  changeRequestsDraft: Type.Integer(),
  mergeRules: Type.Object({ type: Type.String() }),
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    published: Type.Optional(Type.String()),
    public: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
  }),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    edit: Type.Boolean(),
    triggerGitSync: Type.Boolean(),
    comment: Type.Boolean(),
    merge: Type.Boolean(),
    review: Type.Boolean(),
  }),
});

export const SpaceTitle = SingleLineText({ maxLength: 50 });
export const SpaceEmoji = SingleLineText({ maxLength: 50 });

export const CreateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(SpaceEmoji),
  parent: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  editMode: Type.Optional(EditModeSchema),
});

export const UpdateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Nullable(SpaceEmoji)),
    editMode: Type.Optional(EditModeSchema),
    defaultLevel: Type.Optional(NullableRoleSchema),
    visibility: Type.Optional(VisibilitySchema),
  },
  { minProperties: 1 },
);

// As in the published API, a move names a new parent, a position, or both.
export const MoveBody = Type.Object(
  {
    parent: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    position: Type.Optional(PositionSchema),
  },
  { minProperties: 1 },
);

export const TransferBody = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 100 }),
  collection: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 100 }) });
export const OrgParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const GetSpaceQuery = Type.Object({
  shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
