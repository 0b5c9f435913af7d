import { Type } from '@sinclair/typebox';
import { callerOf } from '../../http/authenticate';
import { badRequest, conflict, notFound } from '../../http/api-error';
import { PageQuerySchema, errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { CustomFieldQueries, type CustomFieldRow } from './custom-field-queries';
import {
  CreateCustomFieldBody,
  CustomFieldListSchema,
  CustomFieldSchema,
  SpaceCustomFieldValuesSchema,
  UpdateCustomFieldBody,
  UpdateSpaceCustomFieldsBody,
  isSelectType,
  type CustomFieldType,
  type CustomFieldValue,
} from './custom-field-schema';
import { serializeCustomField } from './custom-field-serializer';
import { checkCustomFieldValue, keepOfferedChoices } from './custom-field-value';

const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
const FieldParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  fieldName: Type.String({ minLength: 1, maxLength: 100 }),
});
const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 100 }) });

/** Options belong to select types only: a select needs them, any other type must not have them. */
function checkOptionsFitType(type: CustomFieldType, options: string[] | undefined): void {
  if (isSelectType(type) && options === undefined) {
    throw badRequest(`body.options is required for a ${type} field (1 to 50 choices)`);
  }
  if (!isSelectType(type) && options !== undefined) {
    throw badRequest(
      `body.options is only allowed for select:single and select:multi fields, not ${type}`,
    );
  }
}

/** An empty string clears a text attribute just like null does, so nothing stores "". */
function orNull(value: string | null | undefined): string | null | undefined {
  return value === '' ? null : value;
}

export function customFieldRoutes(app: TypedApp, ctx: ServerContext): void {
  const queries = new CustomFieldQueries(ctx.db);
  const { access, urls } = ctx;
  const now = () => ctx.clock.now().toISOString();
  const requireField = (organizationId: string, fieldName: string): CustomFieldRow => {
    const row = queries.get(organizationId, fieldName);
    if (!row) throw notFound(`Custom field ${fieldName}`);
    return row;
  };

  app.get(
    '/v1/orgs/:organizationId/custom-fields',
    {
      schema: {
        params: OrgParams,
        querystring: Type.Object(PageQuerySchema),
        response: { 200: CustomFieldListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'read');
      const page = paginate<CustomFieldRow>(
        ctx.db,
        queries.listQuery(organizationId),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => serializeCustomField(row, role, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/custom-fields',
    {
      schema: {
        params: OrgParams,
        body: CreateCustomFieldBody,
        response: { 201: CustomFieldSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const body = request.body;
      checkOptionsFitType(body.type, body.options);
      if (queries.get(organizationId, body.name)) {
        throw conflict(`A custom field named ${body.name} already exists in this organization`);
      }
      queries.insert(
        organizationId,
        {
          name: body.name,
          type: body.type,
          title: orNull(body.title) ?? null,
          description: orNull(body.description) ?? null,
          placeholder: orNull(body.placeholder) ?? null,
          options: body.options ?? null,
        },
        now(),
      );
      return reply
        .code(201)
        .send(serializeCustomField(requireField(organizationId, body.name), role, urls));
    },
  );

  app.get(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    { schema: { params: FieldParams, response: { 200: CustomFieldSchema, ...errorResponses } } },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, fieldName } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'read');
      return serializeCustomField(requireField(organizationId, fieldName), role, urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: {
        params: FieldParams,
        body: UpdateCustomFieldBody,
        response: { 200: CustomFieldSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, fieldName } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const field = requireField(organizationId, fieldName);
      const { options } = request.body;
      if (options !== undefined && !isSelectType(field.type)) {
        throw badRequest(
          `body.options is only allowed for select:single and select:multi fields, not ${field.type}`,
        );
      }
      ctx.db.transaction(() => {
        queries.update(
          organizationId,
          fieldName,
          {
            title: orNull(request.body.title),
            description: orNull(request.body.description),
            placeholder: orNull(request.body.placeholder),
            ...(options !== undefined ? { options } : {}),
          },
          now(),
        );
        // Spaces must not keep a choice that is no longer offered.
        if (options !== undefined) {
          for (const stored of queries.valuesOfField(organizationId, fieldName)) {
            const kept = keepOfferedChoices(field.type, stored.value, options);
            if (kept === undefined) queries.removeValue(stored.space_id, fieldName);
            else queries.setValue(stored.space_id, organizationId, fieldName, kept);
          }
        }
      })();
      return serializeCustomField(requireField(organizationId, fieldName), role, urls);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: { params: FieldParams, response: { ...noContentResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, fieldName } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      requireField(organizationId, fieldName);
      queries.delete(organizationId, fieldName);
      return reply.code(204).send(undefined);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/custom-fields',
    {
      schema: {
        params: SpaceParams,
        response: { 200: SpaceCustomFieldValuesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const space = access.requireSpace(userId, request.params.spaceId, 'read');
      const values = new Map(
        queries
          .valuesOfSpace(space.spaceId, space.organizationId)
          .map((stored) => [stored.field_name, stored.value]),
      );
      return queries.all(space.organizationId).map((row) => {
        const value = values.get(row.name);
        return {
          customField: serializeCustomField(row, space.orgRole, urls),
          ...(value !== undefined ? { value } : {}),
        };
      });
    },
  );

  app.patch(
    '/v1/spaces/:spaceId/custom-fields',
    {
      schema: {
        params: SpaceParams,
        body: UpdateSpaceCustomFieldsBody,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const space = access.requireSpace(userId, request.params.spaceId, 'edit');
      // Check every entry before writing any, so a bad entry leaves the space unchanged.
      const changes: [string, CustomFieldValue | null][] = Object.entries(request.body.values).map(
        ([name, { value }]) => {
          const field = queries.get(space.organizationId, name);
          if (!field) {
            throw badRequest(
              `body.values.${name}: no custom field named ${name} in this organization`,
            );
          }
          if (value === null) return [name, null];
          const options = field.options ? (JSON.parse(field.options) as string[]) : null;
          return [name, checkCustomFieldValue({ name, type: field.type, options }, value)];
        },
      );
      ctx.db.transaction(() => {
        for (const [name, value] of changes) {
          if (value === null) queries.removeValue(space.spaceId, name);
          else queries.setValue(space.spaceId, space.organizationId, name, value);
        }
      })();
      return reply.code(204).send(undefined);
    },
  );
}
