/**
 * `/app/sign-in` and `/app/sign-out`: a browser trades an API token for a session cookie
 * (HttpOnly, SameSite=Strict, Secure when served over https; its value is signed, never the token).
 * Both POSTs refuse cross-site requests (Sec-Fetch-Site, else Origin).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../http/api-error';
import type { TypedApp } from '../http/typed-app';
import { markup, type SafeHtml } from './safe-html';
import type { ViewDeps } from './view-deps';
import { renderViewPage } from './view-layout';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS } from './view-sessions';

export const SIGN_IN_PATH = '/app/sign-in';
const HOME = '/app';
/** The session reaches the app views and the published sites (members read private ones). */
const COOKIE_PATH = '/';

const SignInQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048 })) });
const SignInBody = Type.Object(
  {
    token: Type.String({ maxLength: 1024 }),
    next: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

/** Where to go after signing in: a view of this server only (no `//host`, no scheme). */
export function safeNext(next: string | undefined): string {
  if (!next || !/^\/app(\/|$|\?)/.test(next) || /[\\\s]|\/\//.test(next)) return HOME;
  return next;
}

/** Whether a state-changing request comes from one of this server's own pages. */
function sameOrigin(request: FastifyRequest, publicRoot: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  // No Origin and no Fetch Metadata: not a browser, which has no cookie to be tricked into sending.
  if (origin === undefined) return true;
  const own = [`${request.protocol}://${request.host}`, new URL(publicRoot).origin];
  return own.includes(origin);
}

interface FormState {
  next: string;
  error?: string;
  /** Who this browser is signed in as already, if anyone. */
  viewer?: string;
}

function signInForm({ next, error, viewer }: FormState): SafeHtml {
  const alert = error ? markup`<p class="error" role="alert" id="sign-in-error">${error}</p>` : '';
  const current = viewer
    ? markup`<p>You are signed in as ${viewer}: <a href="${next}">continue</a>, or sign in
        with another token.</p>`
    : '';
  return markup`<h1>Sign in to Quire</h1>
    <p>
      Paste an API token of this server (the one you give <code>quire login</code>). It is checked
      once and never stored in your browser: you get a session cookie instead, valid for 12 hours or
      until the token is revoked.
    </p>
    ${current} ${alert}
    <form class="sign-in" method="post" action="${SIGN_IN_PATH}">
      <input type="hidden" name="next" value="${next}" />
      <label for="token">API token</label>
      <input
        id="token"
        name="token"
        type="password"
        autocomplete="off"
        required
        ${error ? markup`aria-describedby="sign-in-error" aria-invalid="true"` : ''}
      />
      <button type="submit">Sign in</button>
    </form>`;
}

function sendForm(reply: FastifyReply, status: number, state: FormState) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(renderViewPage({ title: 'Sign in', body: signInForm(state) }));
}

export function signInRoutes(app: TypedApp, deps: ViewDeps): void {
  const publicRoot = () => deps.ctx.urls.root;
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || publicRoot().startsWith('https:');

  app.get(
    SIGN_IN_PATH,
    { config: { public: true }, schema: { querystring: SignInQuery } },
    async (request, reply) => {
      const userId = deps.sessions.userOf(request.cookies[SESSION_COOKIE]);
      const next = safeNext(request.query.next);
      if (!userId) return sendForm(reply, 200, { next });
      return sendForm(reply, 200, { next, viewer: deps.views.userName(userId) });
    },
  );

  app.post(
    SIGN_IN_PATH,
    { config: { public: true }, schema: { body: SignInBody } },
    async (request, reply) => {
      if (!sameOrigin(request, publicRoot())) throw forbidden('Cross-site sign-in refused');
      const next = safeNext(request.body.next);
      const session = deps.sessions.signIn(request.body.token.trim());
      if (!session) {
        return sendForm(reply, 401, { next, error: 'That token is unknown or revoked.' });
      }
      return reply
        .setCookie(SESSION_COOKIE, session.value, {
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: secure(request),
          maxAge: SESSION_LIFETIME_SECONDS,
        })
        .redirect(next, 303);
    },
  );

  app.post('/app/sign-out', { config: { public: true } }, async (request, reply) => {
    if (!sameOrigin(request, publicRoot())) throw forbidden('Cross-site sign-out refused');
    return reply
      .clearCookie(SESSION_COOKIE, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secure(request),
      })
      .redirect(SIGN_IN_PATH, 303);
  });
}
