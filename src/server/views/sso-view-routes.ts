/**
 * The SAML service URLs a provider hands out besides its metadata (`startURL`, `acsURL`): this
 * server stores providers (and publishes their metadata) but does not run SAML sign-in, so a
 * browser sent there gets a page saying so and pointing at the token sign-in instead.
 */
import { Type } from '@sinclair/typebox';
import { notFound } from '../http/api-error';
import type { TypedApp } from '../http/typed-app';
import { SamlQueries } from '../resources/saml/saml-queries';
import { markup } from './safe-html';
import { SIGN_IN_PATH } from './sign-in-routes';
import type { ViewDeps } from './view-deps';
import { renderViewPage } from './view-layout';

const Params = Type.Object({ samlProviderId: Type.String({ minLength: 1, maxLength: 200 }) });

export function ssoViewRoutes(app: TypedApp, deps: ViewDeps): void {
  const saml = new SamlQueries(deps.ctx.db);
  for (const path of ['/sso/saml/:samlProviderId/start', '/sso/saml/:samlProviderId/acs']) {
    app.get(
      path,
      { config: { public: true }, schema: { params: Params } },
      async (request, reply) => {
        const { samlProviderId } = request.params;
        if (!saml.byId(samlProviderId)) throw notFound(`SAML provider ${samlProviderId}`);
        const body = markup`<h1>Single sign-on</h1>
          <p>
            This Quire server keeps SAML identity provider settings and publishes their
            <a href="/sso/saml/${samlProviderId}/metadata">service provider metadata</a>, but it
            does not sign browsers in through SAML.
          </p>
          <p><a href="${SIGN_IN_PATH}">Sign in with an API token</a> instead.</p>`;
        return reply
          .type('text/html; charset=utf-8')
          .send(renderViewPage({ title: 'Single sign-on', body }));
      },
    );
  }
}
