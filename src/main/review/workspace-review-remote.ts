import type { Document } from '@gitbook/api';
import { RemoteProtocolError } from '../remote/errors';
import { collectPages, type ListPage } from '../remote/paginate';
import type { WorkspaceClient } from '../remote/workspace-client';
import type { DownloadResult, DownloadSink } from '../sync-ports';
import type {
  RemoteActionResult,
  RemoteMember,
  RemoteMergeConflict,
  ReviewRemote,
  UrlDownload,
} from './review-remote';

/** Path parameters are interpolated raw by the published client. */
const segment = encodeURIComponent;
const PAGE_SIZE = 1000;

/** The review actions over the WorkspaceClient: the published calls, rate-controlled. */
export class WorkspaceReviewRemote implements ReviewRemote {
  constructor(private readonly client: WorkspaceClient) {}

  async updateChangeRequest(
    spaceId: string,
    changeRequestId: string,
    update: { subject?: string; status?: 'draft' | 'open' | 'archived' },
  ): Promise<void> {
    await this.client.call((api) =>
      api.spaces.updateChangeRequestById(segment(spaceId), segment(changeRequestId), update),
    );
  }

  async requestReviewers(spaceId: string, changeRequestId: string, users: string[]) {
    await this.client.call((api) =>
      api.spaces.requestReviewersForChangeRequest(segment(spaceId), segment(changeRequestId), {
        users,
      }),
    );
  }

  async removeRequestedReviewer(spaceId: string, changeRequestId: string, userId: string) {
    await this.client.call(async (api) => ({
      data: await api.spaces.removeRequestedReviewerFromChangeRequest(
        segment(spaceId),
        segment(changeRequestId),
        segment(userId),
      ),
    }));
  }

  async submitReview(
    spaceId: string,
    changeRequestId: string,
    status: 'approved' | 'changes-requested',
    comment: string | null,
  ): Promise<void> {
    // Our server (like GitBook's Markdown input) takes the comment as `{ markdown }`.
    const body = comment === null ? {} : { comment: { markdown: comment } as unknown as Document };
    await this.client.call((api) =>
      api.spaces.submitChangeRequestReview(segment(spaceId), segment(changeRequestId), {
        status: status as never,
        ...body,
      }),
    );
  }

  async merge(spaceId: string, changeRequestId: string): Promise<RemoteActionResult> {
    return actionResult(
      await this.client.call((api) =>
        api.spaces.mergeChangeRequest(segment(spaceId), segment(changeRequestId)),
      ),
    );
  }

  async updateFromMain(spaceId: string, changeRequestId: string): Promise<RemoteActionResult> {
    return actionResult(
      await this.client.call((api) =>
        api.spaces.updateChangeRequest(segment(spaceId), segment(changeRequestId)),
      ),
    );
  }

  async pdfUrl(spaceId: string, changeRequestId: string, pageId: string | null): Promise<string> {
    const data: unknown = await this.client.call((api) =>
      api.spaces.getChangeRequestPdf(
        segment(spaceId),
        segment(changeRequestId),
        pageId === null ? {} : { page: pageId },
      ),
    );
    const url = (data as { url?: unknown } | null)?.url;
    if (typeof url !== 'string') throw new RemoteProtocolError('The PDF answer has no url');
    return url;
  }

  async listMembers(organizationId: string): Promise<RemoteMember[]> {
    const items = await collectPages(async (page) => {
      const data: unknown = await this.client.call((api) =>
        api.orgs.listMembersInOrganizationById(segment(organizationId), {
          limit: PAGE_SIZE,
          ...(page ? { page } : {}),
        }),
      );
      const list = data as ListPage<unknown> | null;
      return Array.isArray(list?.items) ? list : { items: [] };
    });
    return items.flatMap((item) => memberOf(item) ?? []);
  }

  download(request: UrlDownload, sink: DownloadSink): Promise<DownloadResult> {
    return this.client.streamUrl(request, sink);
  }
}

function memberOf(item: unknown): RemoteMember | undefined {
  const user = (item as { user?: unknown } | null)?.user as Record<string, unknown> | undefined;
  if (typeof user?.['id'] !== 'string') return undefined;
  return {
    id: user['id'],
    displayName: typeof user['displayName'] === 'string' ? user['displayName'] : user['id'],
    email: typeof user['email'] === 'string' ? user['email'] : null,
  };
}

function actionResult(data: unknown): RemoteActionResult {
  const value = data as Record<string, unknown> | null;
  const result = value?.['result'];
  const revision = value?.['revision'];
  if (
    (result !== 'merge' && result !== 'update' && result !== 'conflicts') ||
    typeof revision !== 'string'
  ) {
    throw new RemoteProtocolError('The merge answer is not { revision, result }');
  }
  const conflicts = Array.isArray(value?.['conflicts']) ? (value['conflicts'] as unknown[]) : [];
  return { result, revision, conflicts: conflicts.map(conflictOf) };
}

function conflictOf(item: unknown): RemoteMergeConflict {
  const value = (item ?? {}) as Record<string, unknown>;
  const page = value['page'] as { id?: unknown; title?: unknown } | undefined;
  const file = value['file'] as { id?: unknown; name?: unknown } | undefined;
  return {
    reason: typeof value['reason'] === 'string' ? value['reason'] : 'content',
    page:
      typeof page?.id === 'string'
        ? { id: page.id, title: typeof page.title === 'string' ? page.title : page.id }
        : null,
    file:
      typeof file?.id === 'string'
        ? { id: file.id, name: typeof file.name === 'string' ? file.name : file.id }
        : null,
  };
}
