import { generateKeyPairSync } from 'node:crypto';
import {
  SignJWT,
  calculateJwkThumbprint,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/build-server';
import { ManualClock } from '../../src/server/clock';
import { openDatabase } from '../../src/server/db/open-database';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

// The `ping` operation returns the visitor claims as a JWT signed with a key pair kept in the
// database; its public key is published as a JWKS at /.well-known/jwks.json.

const ORG = 'o-acme';
const NOW = '2026-03-01T10:00:00.000Z';
const NOW_SECONDS = Date.parse(NOW) / 1000;

describe('visitor claims: the ping JWT and its JWKS', () => {
  const clock = new ManualClock(NOW);
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const ping = async (token: string) => {
    const { data } = await t.client(token).orgs.updateOrganizationMemberLastSeenAt(ORG);
    return data as { gitbookVisitorClaims?: string; serviceVisitorClaims?: string };
  };
  const jwks = () => createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`));
  const verify = (jwt: string) =>
    jwtVerify(jwt, jwks(), { issuer: t.url, audience: ORG, currentDate: clock.now() });

  it('signs the caller’s claims, verifiable with the published JWKS', async () => {
    const data = await ping(TOKENS.finn);
    expect(data.serviceVisitorClaims).toBe(data.gitbookVisitorClaims);
    const { payload, protectedHeader } = await verify(data.gitbookVisitorClaims!);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toEqual({
      iss: t.url,
      aud: ORG,
      sub: 'u-finn',
      email: 'finn@acme.test',
      name: 'Finn Comment',
      role: 'comment',
      iat: NOW_SECONDS,
      exp: NOW_SECONDS + 3600,
    });
  });

  it('says a guest has no role', async () => {
    const { payload } = await verify((await ping(TOKENS.gus)).gitbookVisitorClaims!);
    expect(payload).toMatchObject({ sub: 'u-gus', role: null });
  });

  it('refuses a tampered token, one from another key, and an expired one', async () => {
    const jwt = (await ping(TOKENS.cara)).gitbookVisitorClaims!;
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
    // The same claims and kid, signed by someone else's key.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const impostor = await new SignJWT(claims as Record<string, unknown>)
      .setProtectedHeader(decodeProtectedHeader(jwt) as { alg: string })
      .sign(privateKey);
    await expect(verify(impostor)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    await expect(
      jwtVerify(jwt, jwks(), { currentDate: new Date(Date.parse(NOW) + 3601_000) }),
    ).rejects.toBeInstanceOf(errors.JWTExpired);
  });

  it('serves the JWKS without a token: one public P-256 key, kid its thumbprint', async () => {
    const response = await fetch(`${t.url}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const set = (await response.json()) as { keys: Record<string, string>[] };
    expect(set.keys).toHaveLength(1);
    const key = set.keys[0]!;
    expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key.kid).toBe(await calculateJwkThumbprint(key));
    expect(decodeProtectedHeader((await ping(TOKENS.ada)).gitbookVisitorClaims!).kid).toBe(key.kid);
  });

  it('answers 401 without a token and 404 outside the organization', async () => {
    await expectError(await t.request('POST', `/v1/orgs/${ORG}/ping`, null), 401);
    await expectError(await t.request('POST', `/v1/orgs/${ORG}/ping`, TOKENS.eve), 404);
  });

  it('keeps the key pair in the database: a restarted server verifies earlier tokens', async () => {
    const jwt = (await ping(TOKENS.bob)).gitbookVisitorClaims!;
    const before = (await (await fetch(`${t.url}/.well-known/jwks.json`)).json()) as {
      keys: object[];
    };
    // Another server (another process, say) on the same database file.
    const db = openDatabase(t.db.name);
    const again = buildServer({ db, clock, config: { sweepIntervalMs: 0, cpuWarmThreads: 0 } });
    try {
      expect(again.ctx.visitorClaims.publicJwk).toEqual(before.keys[0]);
      const { payload } = await jwtVerify(
        jwt,
        createLocalJWKSet({ keys: [again.ctx.visitorClaims.publicJwk] }),
        { currentDate: clock.now() },
      );
      expect(payload.sub).toBe('u-bob');
    } finally {
      await again.close();
      db.close();
    }
  });
});
