import path from 'node:path';
import type { ChangeRequestRef } from '../../shared/contract/change-requests';
import type { ChangeRequestActionOutcome, ReviewVerdict } from '../../shared/contract/review';
import type { CacheDb } from '../cache/open-cache-database';
import {
  ChangeRequestStore,
  type MirroredChangeRequest,
} from '../change-requests/change-request-store';
import { ChangeRequestViews } from '../change-requests/change-request-views';
import {
  CHANGE_REQUESTS_PULLED_AT,
  fetchChangeRequest,
  type ChangeRequestPullDeps,
} from '../change-requests/pull-change-requests';
import { RemoteError, RemoteUnavailableError } from '../remote/errors';
import { conflictPages } from './conflict-pages';
import { mainDiffSinceBase } from './main-diff';
import { QueuedReviewChanges, type QueuedReviewChange } from './queued-review-changes';
import { resolveReviewers } from './resolve-reviewers';
import type { RemoteMember, ReviewRemote } from './review-remote';
import { DEFAULT_MAX_PDF_BYTES, PdfSaveError, pdfFileName, savePdf } from './save-pdf';

export interface ReviewActionsDeps {
  db: CacheDb;
  remote: ReviewRemote;
  /** What reads one change request back into the mirror after an action. */
  pull: ChangeRequestPullDeps;
  now(): string;
  /** Largest PDF accepted (default 200 MiB). */
  maxPdfBytes?: number;
}

/** A change queued offline that the server refused once sent. */
export interface QueuedRefusal {
  spaceId: string;
  number: number;
  message: string;
}

/** Subject and status: sent at once, or queued when the server cannot be reached. */
export type MetadataChange = Pick<QueuedReviewChange, 'subject' | 'status'>;

interface Located {
  spaceId: string;
  spaceTitle: string;
  organizationId: string;
  item: MirroredChangeRequest;
}

/**
 * The review actions on a mirrored change request. Subject and status go into a durable queue
 * when the server is unreachable (shown in the mirror at once, sent by the next sync); everything
 * else needs the server and fails with its RemoteError, nothing queued. After each action the
 * change request is read back into the mirror.
 */
export class ReviewActions {
  private readonly views: ChangeRequestViews;
  private readonly store: ChangeRequestStore;
  private readonly queue: QueuedReviewChanges;

  constructor(private readonly deps: ReviewActionsDeps) {
    this.views = new ChangeRequestViews(deps.db);
    this.store = new ChangeRequestStore(deps.db);
    this.queue = new QueuedReviewChanges(deps.db);
  }

  /** The space the change request is in (its id), resolved from the mirror. */
  spaceOf(ref: ChangeRequestRef): string {
    return this.locate(ref).spaceId;
  }

  async setMetadata(ref: ChangeRequestRef, change: MetadataChange): Promise<'sent' | 'queued'> {
    const cr = this.locate(ref);
    const id = cr.item.changeRequest.id;
    try {
      await this.deps.remote.updateChangeRequest(cr.spaceId, id, change);
    } catch (error) {
      if (!(error instanceof RemoteUnavailableError)) throw error;
      const queuedAt = this.deps.now();
      this.queue.add({
        spaceId: cr.spaceId,
        changeRequestId: id,
        number: ref.number,
        ...change,
        queuedAt,
      });
      this.showLocally(cr.item, change);
      this.forgetPulledAt();
      return 'queued';
    }
    this.queue.supersede(id, Object.keys(change) as (keyof MetadataChange)[]);
    await this.refresh(cr);
    return 'sent';
  }

  /** Asks `add` and stops asking `remove` (ids, emails or names of the organization's members). */
  async setReviewers(ref: ChangeRequestRef, add: readonly string[], remove: readonly string[]) {
    const cr = this.locate(ref);
    const members = this.withRequested(await this.deps.remote.listMembers(cr.organizationId), cr);
    const adding = resolveReviewers(add, members);
    const removing = resolveReviewers(remove, members);
    const id = cr.item.changeRequest.id;
    if (adding.length > 0) {
      await this.deps.remote.requestReviewers(
        cr.spaceId,
        id,
        adding.map((member) => member.id),
      );
    }
    for (const member of removing) {
      await this.deps.remote.removeRequestedReviewer(cr.spaceId, id, member.id);
    }
    await this.refresh(cr);
  }

  async review(ref: ChangeRequestRef, verdict: ReviewVerdict, comment: string | null) {
    const cr = this.locate(ref);
    await this.deps.remote.submitReview(cr.spaceId, cr.item.changeRequest.id, verdict, comment);
    await this.refresh(cr);
  }

  /** Merges into main; main comes with the next pull. Conflicts come with their pages. */
  async merge(ref: ChangeRequestRef): Promise<ChangeRequestActionOutcome> {
    return this.integrate(ref, 'merge');
  }

  /** Brings main's changes into the change request. */
  async updateFromMain(ref: ChangeRequestRef): Promise<ChangeRequestActionOutcome> {
    return this.integrate(ref, 'update');
  }

  /** Saves the PDF to `file` (absolute) or, for null, under a fresh name in `folder`. */
  async exportPdf(
    ref: ChangeRequestRef,
    pageId: string | null,
    file: string | null,
    folder: string,
  ): Promise<{ file: string; bytes: number }> {
    if (file !== null && !path.isAbsolute(file)) {
      throw new PdfSaveError('target', `the PDF's file must be an absolute path, not ${file}`);
    }
    const cr = this.locate(ref);
    const { changeRequest } = cr.item;
    const url = await this.deps.remote.pdfUrl(cr.spaceId, changeRequest.id, pageId);
    const target =
      file ??
      path.join(folder, pdfFileName(cr.spaceTitle, changeRequest.number, changeRequest.subject));
    return savePdf(this.deps.remote, url, target, this.deps.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES);
  }

  /**
   * Sends what was queued offline, oldest first. Stops at an unreachable server (the rest waits);
   * a change the server refuses is kept, marked, and said in the returned problems.
   */
  async sendQueued(): Promise<QueuedRefusal[]> {
    const problems: QueuedRefusal[] = [];
    for (const change of this.queue.list()) {
      if (change.refused !== undefined) continue;
      const fields: MetadataChange = {
        ...(change.subject !== undefined ? { subject: change.subject } : {}),
        ...(change.status !== undefined ? { status: change.status } : {}),
      };
      try {
        await this.deps.remote.updateChangeRequest(change.spaceId, change.changeRequestId, fields);
        this.queue.settle(change);
      } catch (error) {
        if (error instanceof RemoteUnavailableError || !(error instanceof RemoteError)) break;
        const reason = error.message.replace(/^\d{3} /, '');
        this.queue.settle(change, reason);
        const message =
          `The server refused ${describe(fields)} of change request #${change.number}, ` +
          `set offline: ${reason} (kept queued, not sent again)`;
        problems.push({ spaceId: change.spaceId, number: change.number, message });
      }
    }
    this.forgetPulledAt();
    return problems;
  }

  /** What waits in the queue (refused ones included). */
  queued(): QueuedReviewChange[] {
    return this.queue.list();
  }

  private async integrate(
    ref: ChangeRequestRef,
    action: 'merge' | 'update',
  ): Promise<ChangeRequestActionOutcome> {
    const cr = this.locate(ref);
    const id = cr.item.changeRequest.id;
    const remote = this.deps.remote;
    const answer =
      action === 'merge'
        ? await remote.merge(cr.spaceId, id)
        : await remote.updateFromMain(cr.spaceId, id);
    await this.refresh(cr);
    if (answer.result === 'conflicts') {
      const pages = conflictPages(
        answer.conflicts,
        [...this.views.pageDiffs(ref)],
        mainDiffSinceBase(this.deps.db, this.deps.pull.content, cr.spaceId, cr.item.baseRevisionId),
      );
      return { result: 'conflicts', pages };
    }
    if (action === 'update' && answer.revision === cr.item.changeRequest.revision) {
      return { result: 'unchanged', revision: answer.revision };
    }
    return { result: 'merge', revision: answer.revision };
  }

  private locate(ref: ChangeRequestRef): Located {
    const detail = this.views.detail(ref, '');
    const item = this.store.find(detail.spaceId, detail.number)!;
    return {
      spaceId: detail.spaceId,
      spaceTitle: detail.space,
      organizationId: detail.organizationId,
      item,
    };
  }

  /** Reads the change request back; a failure leaves it to the next sync (the action was done). */
  private async refresh(cr: Located): Promise<void> {
    this.forgetPulledAt();
    try {
      const fresh = await this.deps.pull.changeRequests.getChangeRequest(
        cr.spaceId,
        cr.item.changeRequest.id,
      );
      if (fresh === undefined) this.store.remove(cr.spaceId, cr.item.changeRequest.id);
      else await fetchChangeRequest(this.deps.pull, this.store, fresh);
    } catch (error) {
      if (!(error instanceof RemoteError)) throw error;
    }
  }

  /** The next sync refreshes the whole mirror (and brings main after a merge). */
  private forgetPulledAt(): void {
    this.deps.db.prepare('DELETE FROM sync_state WHERE key = ?').run(CHANGE_REQUESTS_PULLED_AT);
  }

  private showLocally(item: MirroredChangeRequest, change: MetadataChange): void {
    const { reviews, requestedReviewers, contributors } = item;
    this.store.upsert(
      { ...item.changeRequest, ...change } as MirroredChangeRequest['changeRequest'],
      { reviews, requestedReviewers, contributors },
      item.fetchedAt,
    );
  }

  /** The members, plus requested reviewers who are not (anymore): they can still be removed. */
  private withRequested(members: RemoteMember[], cr: Located): RemoteMember[] {
    const known = new Set(members.map((member) => member.id));
    const others = cr.item.requestedReviewers
      .filter((request) => !known.has(request.user.id))
      .map((request) => ({
        id: request.user.id,
        displayName: request.user.displayName,
        email: null,
      }));
    return [...members, ...others];
  }
}

function describe(fields: MetadataChange): string {
  const parts = [
    ...(fields.subject !== undefined ? [`the subject "${fields.subject}"`] : []),
    ...(fields.status !== undefined ? [`the status ${fields.status}`] : []),
  ];
  return parts.join(' and ');
}
