import { createHash } from 'node:crypto';

/** sha256 (hex) of file bytes or of a string's UTF-8 encoding: the identity of a content. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
