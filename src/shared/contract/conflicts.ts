/**
 * `content`: edited on both sides, not mergeable line by line; `asset`: an image or other file
 * changed on both sides; `deleted-remotely` / `deleted-locally`: an edit that won over a deletion
 * on the other side (kept, noted for the user).
 */
export type ConflictKind = 'content' | 'asset' | 'deleted-remotely' | 'deleted-locally';

/** An open conflict, as `quire conflicts` lists it. */
export interface ConflictListing {
  readonly id: number;
  readonly spaceId: string;
  readonly spaceTitle: string;
  readonly pageId: string | null;
  /** The page's title ('' for a file that is not a page's). */
  readonly pageTitle: string;
  /** The local file, relative to the space folder. */
  readonly path: string;
  /** The local file, absolute. */
  readonly file: string;
  readonly kind: ConflictKind;
  readonly message: string;
  readonly createdAt: string;
}

/** The three versions of a conflicted page (`quire conflicts show`, the app's side by side). */
export interface ConflictVersions {
  readonly conflict: ConflictListing;
  /** The last synced text; null when unknown (a file that was never synced). */
  readonly base: string | null;
  /** The local file as it is now; null when it is deleted. */
  readonly mine: string | null;
  /** The server's text; null when the page was deleted there. */
  readonly theirs: string | null;
  /** An image or other file: its versions are not text and are not shown. */
  readonly binary: boolean;
}

export type ConflictResolutionChoice =
  { mode: 'mine' } | { mode: 'theirs' } | { mode: 'merged'; text: string };
