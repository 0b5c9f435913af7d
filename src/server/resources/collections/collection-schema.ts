import { Type } from '@sinclair/typebox';
import { MultilineText, SingleLineText } from '../../http/text-schemas';
import { NullableRoleSchema, Nullable, PositionSchema } from '../../http/common-schemas';

export const CollectionSchema = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: NullableRoleSchema,
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
  permissions: Type.Object({
    view: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    create: Type.Boolean(),
  }),
});

export const CollectionTitle = SingleLineText({ maxLength: 50 });
export const CollectionDescription = MultilineText({ maxLength: 100 });
const Id = Type.String({ minLength: 1, maxLength: 100 });

export const CollectionParams = Type.Object({ collectionId: Id });

export const CreateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  parent: Type.Optional(Id),
});

export const UpdateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  // An empty description removes it.
  description: Type.Optional(CollectionDescription),
  defaultLevel: Type.Optional(NullableRoleSchema),
});

export const MoveCollectionBody = Type.Object(
  {
    parent: Type.Optional(Nullable(Id)),
    position: Type.Optional(PositionSchema),
  },
  { minProperties: 1 },
);

export const TransferCollectionBody = Type.Object({ organization: Id });
