import { hash, randomBytes } from 'node:crypto';

/**
 * Tokens are stored only as their SHA-256; a fast hash is enough for 128-bit random secrets.
 * Every request hashes its token, so the one-shot `hash` is used rather than a Hash object.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function generateToken(): string {
  return `qt_${randomBytes(24).toString('base64url')}`;
}
