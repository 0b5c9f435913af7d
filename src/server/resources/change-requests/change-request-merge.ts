import { RevisionStore } from '../../content/revision-store';
import type { RevisionTree } from '../../content/revision-tree';
import { mergeRevisionTrees, type MergeConflict } from '../../content/three-way-merge';
import { notFound } from '../../http/api-error';
import type { ServerContext } from '../../server-context';
import { contentReaderFor } from '../content/content-reader';
import { ChangeRequestQueries, type ChangeRequestRow } from './change-request-queries';

export type MergeOutcome<Done extends 'merge' | 'update'> =
  | { result: Done; revision: string }
  | { result: 'conflicts'; revision: string; conflicts: ReturnType<typeof serializeConflict>[] };

export function serializeConflict(conflict: MergeConflict) {
  return conflict.reason === 'file'
    ? {
        reason: conflict.reason,
        file: { id: conflict.fileId, name: conflict.title },
        detail: conflict.detail,
      }
    : {
        reason: conflict.reason,
        page: { id: conflict.pageId, title: conflict.title },
        detail: conflict.detail,
      };
}

/** The revision a change request's edits are measured against: where main was when it last synced. */
export function baseRevisionOf(row: ChangeRequestRow): string {
  return row.revision_merged_ancestor ?? row.revision_initial;
}

/**
 * Merging a change request into main, and bringing main into a change request ("update"): both
 * are three-way merges against the common ancestor (`baseRevisionOf`). Each runs synchronously
 * inside one transaction, so nothing can move main or the change request between reading the
 * trees and storing the result; on conflicts nothing at all is written.
 */
export class ChangeRequestMerger {
  private readonly store: RevisionStore;
  private readonly queries: ChangeRequestQueries;

  constructor(private readonly ctx: ServerContext) {
    this.store = new RevisionStore(ctx.db);
    this.queries = new ChangeRequestQueries(ctx.db);
  }

  /** Parsed trees are shared with the content reads' cache: read-only, as merges treat them. */
  private tree(revisionId: string): RevisionTree {
    const tree = contentReaderFor(this.ctx).queries.tree(revisionId);
    if (!tree) throw notFound(`Revision ${revisionId}`);
    return tree;
  }

  /** Main takes the change request: a `merge` revision with parents [main, change request]. */
  merge(row: ChangeRequestRow, userId: string, now: string): MergeOutcome<'merge'> {
    const main = this.queries.spaceRevision(row.space_id);
    if (!main) throw notFound(`Space ${row.space_id}`);
    const merged = mergeRevisionTrees(
      this.tree(baseRevisionOf(row)),
      this.tree(main),
      this.tree(row.revision_id),
      this.store,
    );
    if (merged.kind === 'conflicts') {
      return {
        result: 'conflicts',
        revision: main,
        conflicts: merged.conflicts.map(serializeConflict),
      };
    }
    const revision = this.store.create(
      row.space_id,
      merged.tree,
      [main, row.revision_id],
      'merge',
      now,
    );
    this.queries.setSpaceRevision(row.space_id, revision, now);
    this.queries.setMerged(row.id, revision, userId, now);
    return { result: 'merge', revision };
  }

  /**
   * The change request takes main: an `update` revision with parents [change request, main], and
   * main's revision becomes the change request's new base. Nothing to take is not an error.
   */
  update(row: ChangeRequestRow, now: string): MergeOutcome<'update'> {
    const main = this.queries.spaceRevision(row.space_id);
    if (!main) throw notFound(`Space ${row.space_id}`);
    if (main === baseRevisionOf(row)) return { result: 'update', revision: row.revision_id };
    const merged = mergeRevisionTrees(
      this.tree(baseRevisionOf(row)),
      this.tree(row.revision_id),
      this.tree(main),
      this.store,
    );
    if (merged.kind === 'conflicts') {
      return {
        result: 'conflicts',
        revision: row.revision_id,
        conflicts: merged.conflicts.map(serializeConflict),
      };
    }
    const revision = this.store.create(
      row.space_id,
      merged.tree,
      [row.revision_id, main],
      'update',
      now,
    );
    this.queries.setUpdated(row.id, revision, main, now);
    return { result: 'update', revision };
  }
}
