/**
 * Browser sessions of the read-only views. The cookie holds a signed value, never the token: the
 * hash of the token signed in with (SHA-256, as stored in `tokens`), an expiry, and an HMAC with
 * a per-database key. A session lasts while its token does: every view re-checks that the token
 * is known and not revoked, so revoking the token signs its browsers out as well.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../auth/token-hash';
import type { Clock } from '../clock';
import type { Db } from '../db/open-database';

export const SESSION_COOKIE = 'quire_session';
/** A working day; signing in again takes the token again. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;
const SECRET_NAME = 'view-session-key';
const VERSION = 'v1';

export interface ViewSession {
  /** The cookie's value. */
  value: string;
  userId: string;
}

/** The database's session key, made on first use (INSERT OR IGNORE, then read back). */
function sessionKey(db: Db): Buffer {
  db.prepare('INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)').run(
    SECRET_NAME,
    randomBytes(32).toString('base64'),
  );
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM server_secrets WHERE name = ?')
    .get(SECRET_NAME)!;
  return Buffer.from(row.value, 'base64');
}

export class ViewSessions {
  private readonly key: Buffer;
  private readonly findToken;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.key = sessionKey(db);
    this.findToken = db.prepare<[string], { user_id: string }>(
      'SELECT user_id FROM tokens WHERE hash = ? AND revoked_at IS NULL',
    );
  }

  /** A session for an API token, or null when the token is unknown or revoked (as the API). */
  signIn(token: string): ViewSession | null {
    const tokenHash = hashToken(token);
    const row = this.findToken.get(tokenHash);
    if (!row) return null;
    const expires = Math.floor(this.clock.now().getTime() / 1000) + SESSION_LIFETIME_SECONDS;
    const payload = `${VERSION}.${tokenHash}.${expires}`;
    return { value: `${payload}.${this.sign(payload)}`, userId: row.user_id };
  }

  /** The user a cookie value signs in, or null (forged, expired, or its token revoked). */
  userOf(value: string | undefined): string | null {
    if (!value) return null;
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) return null;
    const [, tokenHash, expires, signature] = parts as [string, string, string, string];
    const expected = Buffer.from(this.sign(`${VERSION}.${tokenHash}.${expires}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (Number(expires) * 1000 <= this.clock.now().getTime()) return null;
    return this.findToken.get(tokenHash)?.user_id ?? null;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
