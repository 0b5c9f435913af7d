import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../clock';
import type { Db } from '../db/open-database';

/** The key's row in `server_secrets`: a private P-256 JWK, made once per database. */
const SECRET_NAME = 'visitor-claims-key';

/** ES256: short signatures, fast to sign, and supported by every JOSE library. */
export const VISITOR_CLAIMS_ALGORITHM = 'ES256';

/** Long enough for a visit; the client pings again (and gets a fresh token) well before. */
const LIFETIME_SECONDS = 60 * 60;

/** A public key as published in the JWKS (RFC 7517), with its RFC 7638 thumbprint as `kid`. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: typeof VISITOR_CLAIMS_ALGORITHM;
  use: 'sig';
}

/** What a visitor token says about its holder. */
export interface VisitorClaims {
  organizationId: string;
  userId: string;
  email: string;
  name: string;
  /** The member's organization role; null for a guest. */
  role: string | null;
}

interface PrivateJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no whitespace. */
function thumbprint(jwk: PrivateJwk): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

function storedKey(db: Db): PrivateJwk | undefined {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM server_secrets WHERE name = ?')
    .get(SECRET_NAME);
  return row ? (JSON.parse(row.value) as PrivateJwk) : undefined;
}

/**
 * The database's key pair, made on first use. INSERT OR IGNORE then read back: when two
 * processes share a new database file, both end up with whichever key was stored first.
 */
function loadOrCreateKey(db: Db): PrivateJwk {
  const existing = storedKey(db);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  db.prepare('INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)').run(
    SECRET_NAME,
    JSON.stringify(privateKey.export({ format: 'jwk' })),
  );
  const stored = storedKey(db);
  if (!stored) throw new Error('The visitor-claims key could not be stored');
  return stored;
}

/**
 * Signs the visitor claims the `ping` operation returns (a JWT that sites with `visitor-auth`
 * visibility accept), with a key pair kept in the database so tokens stay verifiable across
 * restarts. Anyone can verify them with the public key published at `/.well-known/jwks.json`.
 */
export class VisitorClaimsSigner {
  private readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    const jwk = loadOrCreateKey(db);
    this.privateKey = createPrivateKey({ key: { ...jwk }, format: 'jwk' });
    this.publicJwk = {
      kty: 'EC',
      crv: 'P-256',
      x: jwk.x,
      y: jwk.y,
      kid: thumbprint(jwk),
      alg: VISITOR_CLAIMS_ALGORITHM,
      use: 'sig',
    };
  }

  /** `iss` is the server's public URL, `aud` the organization, `sub` the user. */
  sign(claims: VisitorClaims, issuer: string): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ email: claims.email, name: claims.name, role: claims.role })
      .setProtectedHeader({ alg: VISITOR_CLAIMS_ALGORITHM, kid: this.publicJwk.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(claims.organizationId)
      .setSubject(claims.userId)
      .setIssuedAt(now)
      .setExpirationTime(now + LIFETIME_SECONDS)
      .sign(this.privateKey);
  }
}
