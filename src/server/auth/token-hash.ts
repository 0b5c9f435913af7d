import { createHash, randomBytes } from 'node:crypto';

/** Tokens are stored only as their SHA-256; a fast hash is enough for 128-bit random secrets. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(): string {
  return `qt_${randomBytes(24).toString('base64url')}`;
}
