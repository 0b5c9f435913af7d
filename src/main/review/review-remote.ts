import type { DownloadResult, DownloadSink } from '../sync-ports';

/** A merge's or an update's answer, as the server sent it. */
export interface RemoteActionResult {
  result: 'merge' | 'update' | 'conflicts';
  revision: string;
  /** What conflicts, when the server says (our server does; GitBook's may not). */
  conflicts: readonly RemoteMergeConflict[];
}

export interface RemoteMergeConflict {
  reason: string;
  page: { id: string; title: string } | null;
  file: { id: string; name: string } | null;
}

/** An organization member, as reviewer resolution needs it. */
export interface RemoteMember {
  id: string;
  displayName: string;
  email: string | null;
}

/** Limits of a download the caller knows more about than the client (a PDF's size cap). */
export interface UrlDownload {
  url: string;
  maxBytes: number;
  /** Names it in errors ("the PDF"). */
  what: string;
}

/**
 * The server calls of the review actions: the published API's change-request writes. Every
 * failure is a RemoteError (the application layer maps them to the contract's errors).
 */
export interface ReviewRemote {
  updateChangeRequest(
    spaceId: string,
    changeRequestId: string,
    update: { subject?: string; status?: 'draft' | 'open' | 'archived' },
  ): Promise<void>;
  requestReviewers(spaceId: string, changeRequestId: string, userIds: string[]): Promise<void>;
  removeRequestedReviewer(spaceId: string, changeRequestId: string, userId: string): Promise<void>;
  submitReview(
    spaceId: string,
    changeRequestId: string,
    status: 'approved' | 'changes-requested',
    comment: string | null,
  ): Promise<void>;
  merge(spaceId: string, changeRequestId: string): Promise<RemoteActionResult>;
  updateFromMain(spaceId: string, changeRequestId: string): Promise<RemoteActionResult>;
  /** The temporary URL the PDF of the change request (or of one page) is printed at. */
  pdfUrl(spaceId: string, changeRequestId: string, pageId: string | null): Promise<string>;
  listMembers(organizationId: string): Promise<RemoteMember[]>;
  /** Streams a URL the server handed out (a PDF's) into `sink`, bounded by `maxBytes`. */
  download(request: UrlDownload, sink: DownloadSink): Promise<DownloadResult>;
}
