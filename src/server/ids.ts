import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random, URL-safe identifier (20 base62 characters, ~119 bits) like the ones GitBook hands out. */
export function newId(length = 20): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % 62];
  return id;
}
