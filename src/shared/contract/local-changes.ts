/** The change-request content operation a refused change was. */
export type RefusedChangeKind = 'insert_page' | 'update_page' | 'delete_page' | 'insert_files';

/** A change the server refused, as `quire status` lists it. */
export interface RefusedChangeListing {
  /** What `quire retry <id>` and `quire drop <id>` take. */
  readonly id: number;
  readonly spaceId: string;
  readonly kind: RefusedChangeKind;
  /** The file it came from, relative to the mirror folder; the space folder when none is known. */
  readonly path: string;
  /** The server's reason. */
  readonly reason: string;
  /** Files (relative to the mirror folder) whose changes wait for this one. */
  readonly holds: readonly string[];
}

export type UnsyncedChange = 'edited' | 'new' | 'deleted' | 'moved';

/** A file changed since the last sync that no push has recorded yet (`quire status`). */
export interface UnsyncedEditListing {
  readonly spaceId: string;
  /** Relative to the mirror folder. */
  readonly path: string;
  readonly change: UnsyncedChange;
  /** For `moved`: where it was, relative to the mirror folder. */
  readonly from?: string;
}
