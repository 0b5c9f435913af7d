import { Type, type TSchema } from '@sinclair/typebox';
import { ROLES } from '../auth/roles';
import { MAX_PAGE_SIZE } from './paginate';

export const RoleSchema = Type.Union(ROLES.map((role) => Type.Literal(role)));
export const NullableRoleSchema = Type.Union([RoleSchema, Type.Null()]);

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const UserSchema = Type.Object({
  object: Type.Literal('user'),
  id: Type.String(),
  displayName: Type.String(),
  email: Type.Optional(Type.String()),
  photoURL: Type.Optional(Type.String()),
  urls: Type.Object({ location: Type.String() }),
});

export const PageQuerySchema = {
  page: Type.Optional(Type.String({ maxLength: 2048 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
};

export const ErrorSchema = Type.Object({
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
});

/** The list envelope of the spec, `{ items, next?: { page }, count }`. */
export const ListSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer(),
  });

/** A boolean query flag: accepts true/false (and 1/0, as Ajv coerces them). */
export const BooleanQuery = Type.Boolean();

/** A `{ position: { before?, after? } }` reference to a space or a collection (move bodies). */
export const ContentPointerSchema = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('collection'), collection: Type.String({ minLength: 1 }) }),
]);
export const PositionSchema = Type.Object({
  before: Type.Optional(ContentPointerSchema),
  after: Type.Optional(ContentPointerSchema),
});

/** 204 and 205 answers carry no content. */
export const NoContent = Type.Unsafe<undefined>({ type: 'null' });
export const noContentResponses = { 204: NoContent, 205: NoContent };

/** Responses shared by all routes, so the serializer never sees an unknown status. */
export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  413: ErrorSchema,
  422: ErrorSchema,
  429: ErrorSchema,
};
