/**
 * The read-only HTML views of the server: one encapsulated Fastify scope with its own cookie
 * parsing, form bodies (sign-in only), security headers and HTML errors, so nothing of it
 * changes the API around it.
 */
import { STATUS_CODES } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { errorBody, validationMessage } from '../http/error-handler';
import type { TypedApp } from '../http/typed-app';
import type { ServerContext } from '../server-context';
import { CpuJobError } from '../workers/cpu-pool';
import { orgResourceViewRoutes } from './org-resource-view-routes';
import { orgViewRoutes } from './org-view-routes';
import { publishedViewRoutes } from './published-view-routes';
import { markup } from './safe-html';
import { SIGN_IN_PATH, signInRoutes } from './sign-in-routes';
import { spaceViewRoutes } from './space-view-routes';
import { ssoViewRoutes } from './sso-view-routes';
import { SignInRequired, viewDeps } from './view-deps';
import { renderViewPage } from './view-layout';
import { VIEW_STYLESHEET, VIEW_STYLESHEET_PATH } from './view-style';

/**
 * Nothing runs: no script source at all. Styles come from the one stylesheet route, images from
 * this server or https; forms post only here; no page can be framed.
 */
export const VIEW_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self'; " +
  "base-uri 'none'; frame-ancestors 'none'";

/** The largest sign-in form body (a token and where to go next). */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * A browser (which asks for text/html) gets an error page; any other client the API's envelope,
 * `{ "error": { "code", "message" } }`, as everywhere else on the server.
 */
function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  if (!(request.headers.accept ?? '').includes('text/html')) {
    return reply.code(status).send(errorBody(status, message));
  }
  const title = STATUS_CODES[status] ?? 'Error';
  const body = markup`<h1>${title}</h1>
    <p>${message}</p>
    <p><a href="/app">Your organizations</a> · <a href="${SIGN_IN_PATH}">Sign in</a></p>`;
  return reply.code(status).type('text/html; charset=utf-8').send(renderViewPage({ title, body }));
}

function errorStatus(error: FastifyError | ApiError): [number, string] {
  if (error instanceof ApiError) return [error.status, error.message];
  if (error.validation) {
    const context = error.validationContext === 'querystring' ? 'query' : error.validationContext;
    return [400, validationMessage(error.validation, context ?? 'request')];
  }
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500 ? [status, error.message] : [500, 'Internal server error'];
}

function viewScope(ctx: ServerContext) {
  return async (scope: TypedApp) => {
    await scope.register(fastifyCookie);
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.addHook('onSend', (_request, reply, payload, done) => {
      void reply
        .header('content-security-policy', VIEW_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'same-origin');
      if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
      done(null, payload);
    });
    scope.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      if (error instanceof SignInRequired) {
        return reply.redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(error.next)}`, 303);
      }
      const failure = error instanceof CpuJobError ? error.toApiError('this page') : error;
      const [status, message] = errorStatus(failure);
      if (status === 500) request.log.error({ err: error }, 'unhandled error in a view');
      if (failure instanceof ApiError) void reply.headers(failure.headers);
      return sendError(request, reply, status, message);
    });

    scope.get(VIEW_STYLESHEET_PATH, { config: { public: true } }, async (_request, reply) =>
      reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(VIEW_STYLESHEET),
    );
    // Any other address under /app: a page saying so to a browser (the envelope to others).
    scope.get('/app/*', { config: { public: true } }, async (request) => {
      throw new ApiError(404, `No page at ${request.url.split('?')[0]}`);
    });
    const deps = viewDeps(ctx);
    signInRoutes(scope, deps);
    orgViewRoutes(scope, deps);
    spaceViewRoutes(scope, deps);
    ssoViewRoutes(scope, deps);
    publishedViewRoutes(scope, deps);
    orgResourceViewRoutes(scope, deps);
  };
}

/** Registers every view (`/app…`, the SAML service pages) in its own scope. */
export function viewRoutes(app: TypedApp, ctx: ServerContext): void {
  void app.register(viewScope(ctx));
}
