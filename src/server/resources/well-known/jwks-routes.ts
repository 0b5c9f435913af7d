import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';

/** Where the public key of the `ping` operation's visitor claims is published. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** Keys change only with a new database; an hour keeps verifiers from asking on every token. */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * The JSON Web Key Set that verifies visitor-claims tokens (`iss` is this server's public URL,
 * so a verifier finds it at `<iss>/.well-known/jwks.json`). Public like the SAML metadata: no
 * token, rate-limited per address; it holds only the public key.
 */
export function jwksRoutes(app: TypedApp, ctx: ServerContext): void {
  app.get(JWKS_PATH, { config: { public: true } }, async (_request, reply) => {
    return reply
      .type('application/jwk-set+json')
      .header('cache-control', CACHE_CONTROL)
      .send(JSON.stringify({ keys: [ctx.visitorClaims.publicJwk] }));
  });
}
