import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { TranslationQueries, type TranslationSettingsRow } from './translation-queries';
import {
  CreateTranslationBody,
  ListTranslationsQuery,
  OrgParams,
  PutTranslationBody,
  TranslationParams,
  TranslationSettingsListSchema,
  TranslationSettingsSchema,
} from './translation-schema';
import { serializeTranslationSettings } from './translation-serializer';

/**
 * Translation settings of an organization. Access: members with a role read them (guests get
 * 403, as for the organization's teams); creating, replacing and deleting take the admin role,
 * like the organization's other shared definitions (custom fields).
 */
export function translationRoutes(app: TypedApp, ctx: ServerContext): void {
  const translations = new TranslationQueries(ctx.db);
  const { access, urls } = ctx;
  const now = () => ctx.clock.now().toISOString();

  const requireSettings = (organizationId: string, id: string): TranslationSettingsRow => {
    const row = translations.get(organizationId, id);
    if (!row) throw notFound(`Translation settings ${id}`);
    return row;
  };

  app.get(
    '/v1/orgs/:organizationId/translations',
    {
      schema: {
        params: OrgParams,
        querystring: ListTranslationsQuery,
        response: { 200: TranslationSettingsListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'read');
      const page = paginate<TranslationSettingsRow>(
        ctx.db,
        translations.listQuery(organizationId),
        request.query,
      );
      return listEnvelope(
        page.rows.map((row) => serializeTranslationSettings(row, role, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/translations',
    {
      schema: {
        params: OrgParams,
        body: CreateTranslationBody,
        response: { 201: TranslationSettingsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const { title, languages = [] } = request.body;
      const id = translations.create(organizationId, title, languages, now());
      const body = serializeTranslationSettings(requireSettings(organizationId, id), role, urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        params: TranslationParams,
        response: { 200: TranslationSettingsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, translationSettingsId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'read');
      return serializeTranslationSettings(
        requireSettings(organizationId, translationSettingsId),
        role,
        urls,
      );
    },
  );

  app.put(
    '/v1/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        params: TranslationParams,
        body: PutTranslationBody,
        response: { 200: TranslationSettingsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, translationSettingsId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const current = requireSettings(organizationId, translationSettingsId);
      const { title, languages } = request.body;
      translations.update(
        translationSettingsId,
        title,
        languages ?? (JSON.parse(current.languages) as string[]),
        now(),
      );
      return serializeTranslationSettings(
        requireSettings(organizationId, translationSettingsId),
        role,
        urls,
      );
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        params: TranslationParams,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, translationSettingsId } = request.params;
      access.requireOrg(userId, organizationId, 'admin');
      requireSettings(organizationId, translationSettingsId);
      translations.delete(translationSettingsId);
      return reply.code(205).send(undefined);
    },
  );
}
