import { sha256 } from './revision-store';
import type { BodyStore } from './three-way-merge';

/**
 * A BodyStore held in memory, hashing exactly as RevisionStore does: for tests of content
 * operations that should not need a database, and to count writes.
 */
export class MemoryBodyStore implements BodyStore {
  readonly bodies = new Map<string, string>();
  writes = 0;

  getBody(hash: string): string | undefined {
    return this.bodies.get(hash);
  }

  putBody(markdown: string): string {
    this.writes++;
    const hash = sha256(markdown);
    this.bodies.set(hash, markdown);
    return hash;
  }
}
