import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/open-database';

/**
 * Signs file download URLs so they work without a bearer token (image tags, the sync engine's
 * token-free asset fetches), like GitBook's public file URLs. A signature covers the space, the
 * file id and the content hash, so it cannot be replayed for other bytes.
 */
export class FileUrlSigner {
  private readonly key: Buffer;

  constructor(db: Db) {
    const existing = db
      .prepare<[], { value: string }>(
        "SELECT value FROM server_secrets WHERE name = 'file-url-key'",
      )
      .get();
    if (existing) {
      this.key = Buffer.from(existing.value, 'base64');
    } else {
      this.key = randomBytes(32);
      db.prepare("INSERT INTO server_secrets (name, value) VALUES ('file-url-key', ?)").run(
        this.key.toString('base64'),
      );
    }
  }

  sign(spaceId: string, fileId: string, blob: string): string {
    return createHmac('sha256', this.key)
      .update(`${spaceId}\n${fileId}\n${blob}`)
      .digest('base64url');
  }

  verify(spaceId: string, fileId: string, blob: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(spaceId, fileId, blob));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
