import { RevisionStore } from '../../content/revision-store';
import type { RevisionTree } from '../../content/revision-tree';
import {
  bodiesToMerge,
  mergeRevisionTrees,
  type BodyStore,
  type MergeConflict,
  type TextMerge,
} from '../../content/three-way-merge';
import { notFound } from '../../http/api-error';
import type { ServerContext } from '../../server-context';
import { CpuJobError } from '../../workers/cpu-pool';
import { contentReaderFor } from '../content/content-reader';
import { ChangeRequestQueries, type ChangeRequestRow } from './change-request-queries';
import { GitSyncConfigStore } from '../../gitsync-import/gitsync-config-store';

/** Line merges of less text than this run in the transaction: the hop would cost more. */
const INLINE_MERGE_CHARS = 256 * 1024;

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

  /**
   * The line merges a merge or update of `row` will need, computed on the worker threads before
   * the (synchronous) merge transaction: diff3 of two large pages takes seconds. The store it
   * returns answers them; a merge that finds other bodies (main moved meanwhile) computes those
   * itself, so the result is the same either way.
   */
  async prepare(row: ChangeRequestRow, kind: 'merge' | 'update'): Promise<BodyStore> {
    const main = this.queries.spaceRevision(row.space_id);
    if (!main) throw notFound(`Space ${row.space_id}`);
    // The same sides as `merge` and `update` take: ours is main for a merge, the CR for an update.
    const [ours, theirs] = kind === 'merge' ? [main, row.revision_id] : [row.revision_id, main];
    const triples = bodiesToMerge(
      this.tree(baseRevisionOf(row)),
      this.tree(ours),
      this.tree(theirs),
    );
    const texts = triples.map(({ base, ours, theirs }) => ({
      base: base === undefined ? '' : (this.store.getBody(base) ?? ''),
      ours: this.store.getBody(ours) ?? '',
      theirs: this.store.getBody(theirs) ?? '',
    }));
    const size = texts.reduce((sum, t) => sum + t.base.length + t.ours.length + t.theirs.length, 0);
    if (size <= INLINE_MERGE_CHARS) return this.store;
    let merged: TextMerge[];
    try {
      merged = await this.ctx.cpu.run('merge-texts', { texts });
    } catch (error) {
      throw error instanceof CpuJobError ? error.toApiError('The merge') : error;
    }
    const results = new Map<string, TextMerge>();
    triples.forEach(({ base, ours, theirs }, i) => {
      results.set(JSON.stringify([base, ours, theirs]), merged[i]!);
    });
    return {
      getBody: (hash) => this.store.getBody(hash),
      putBody: (markdown) => this.store.putBody(markdown),
      mergedText: (base, ours, theirs) => results.get(JSON.stringify([base, ours, theirs])),
    };
  }

  /** Main takes the change request: a `merge` revision with parents [main, change request]. */
  merge(
    row: ChangeRequestRow,
    userId: string,
    now: string,
    bodies: BodyStore = this.store,
  ): MergeOutcome<'merge'> {
    const main = this.queries.spaceRevision(row.space_id);
    if (!main) throw notFound(`Space ${row.space_id}`);
    const merged = mergeRevisionTrees(
      this.tree(baseRevisionOf(row)),
      this.tree(main),
      this.tree(row.revision_id),
      bodies,
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
    // An imported `.gitbook.yaml` waits with its change request until this merge.
    new GitSyncConfigStore(this.ctx.db).promote(row.space_id, row.id);
    return { result: 'merge', revision };
  }

  /**
   * The change request takes main: an `update` revision with parents [change request, main], and
   * main's revision becomes the change request's new base. Nothing to take is not an error.
   */
  update(
    row: ChangeRequestRow,
    now: string,
    bodies: BodyStore = this.store,
  ): MergeOutcome<'update'> {
    const main = this.queries.spaceRevision(row.space_id);
    if (!main) throw notFound(`Space ${row.space_id}`);
    if (main === baseRevisionOf(row)) return { result: 'update', revision: row.revision_id };
    const merged = mergeRevisionTrees(
      this.tree(baseRevisionOf(row)),
      this.tree(row.revision_id),
      this.tree(main),
      bodies,
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
