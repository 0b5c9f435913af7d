import { Type } from '@sinclair/typebox';
import { callerOf } from '../../http/authenticate';
import { notFound } from '../../http/api-error';
import { UserSchema, errorResponses } from '../../http/common-schemas';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { serializeUser, type UserRow } from './user-serializer';

/**
 * The authenticated user (published API getAuthenticatedUser) — how a client checks its token —
 * and other users by id, visible only when they share an organization with the caller.
 */
export function userRoutes(app: TypedApp, ctx: ServerContext): void {
  const byId = ctx.db.prepare<[string], UserRow>(
    'SELECT id, display_name, email, photo_url FROM users WHERE id = ?',
  );
  const shareOrganization = ctx.db.prepare<[string, string], { one: number }>(
    `SELECT 1 AS one FROM members a JOIN members b ON a.organization_id = b.organization_id
     WHERE a.user_id = ? AND b.user_id = ? AND a.disabled = 0 LIMIT 1`,
  );

  app.get(
    '/v1/user',
    { schema: { response: { 200: UserSchema, ...errorResponses } } },
    async (request) => {
      const row = byId.get(callerOf(request).userId);
      if (!row) throw notFound('User');
      return serializeUser(row, ctx.urls);
    },
  );

  app.get(
    '/v1/users/:userId',
    {
      schema: {
        params: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: UserSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const row = byId.get(request.params.userId);
      if (!row || (row.id !== userId && !shareOrganization.get(userId, row.id))) {
        throw notFound(`User ${request.params.userId}`);
      }
      return serializeUser(row, ctx.urls);
    },
  );
}
