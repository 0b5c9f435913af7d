import type { ChangeRequestStatus } from '@gitbook/api';
import { RemoteNotFoundError } from '../remote/errors';
import { collectPages, type ListPage } from '../remote/paginate';
import type { WorkspaceClient } from '../remote/workspace-client';
import type {
  RemoteChangeRequest,
  RemoteChangeRequests,
  RemoteContributor,
  RemoteRequestedReviewer,
  RemoteReview,
} from '../sync-ports';
import {
  parseChangeRequest,
  parseContributor,
  parseRequestedReviewer,
  parseReview,
} from './parse-change-requests';

/** Path parameters are interpolated raw by the published client. */
const segment = encodeURIComponent;
const PAGE_SIZE = 1000;

/**
 * The change-request reads of the mirror over the WorkspaceClient: the published `@gitbook/api`
 * calls, carried by its rate-controlled fetch (the same queue as every other request).
 */
export class WorkspaceChangeRequestRemote implements RemoteChangeRequests {
  constructor(private readonly client: WorkspaceClient) {}

  async listOrganizationChangeRequests(
    organizationId: string,
    statuses: readonly ChangeRequestStatus[],
  ): Promise<RemoteChangeRequest[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.client.call((api) =>
          api.orgs.listChangeRequestsForOrganization(segment(organizationId), {
            status: [...statuses],
            limit: PAGE_SIZE,
            ...(page ? { page } : {}),
          }),
        ),
      ),
    );
    return items.map(parseChangeRequest);
  }

  async getChangeRequest(spaceId: string, ref: string): Promise<RemoteChangeRequest | undefined> {
    try {
      return parseChangeRequest(
        await this.client.call((api) =>
          api.spaces.getChangeRequestById(segment(spaceId), segment(ref)),
        ),
      );
    } catch (error) {
      if (error instanceof RemoteNotFoundError) return undefined;
      throw error;
    }
  }

  async listReviews(spaceId: string, changeRequestId: string): Promise<RemoteReview[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.client.call((api) =>
          api.spaces.getReviewsByChangeRequestId(segment(spaceId), segment(changeRequestId), {
            limit: PAGE_SIZE,
            ...(page ? { page } : {}),
          }),
        ),
      ),
    );
    return items.map(parseReview);
  }

  async listRequestedReviewers(
    spaceId: string,
    changeRequestId: string,
  ): Promise<RemoteRequestedReviewer[]> {
    const items = await collectPages(async (page) =>
      listPage(
        await this.client.call((api) =>
          api.spaces.getRequestedReviewersByChangeRequestId(
            segment(spaceId),
            segment(changeRequestId),
            { limit: PAGE_SIZE, ...(page ? { page } : {}) },
          ),
        ),
      ),
    );
    return items.flatMap((item) => parseRequestedReviewer(item) ?? []);
  }

  async listContributors(spaceId: string, changeRequestId: string): Promise<RemoteContributor[]> {
    const list = listPage(
      await this.client.call((api) =>
        api.spaces.getContributorsByChangeRequestId(segment(spaceId), segment(changeRequestId)),
      ),
    );
    return list.items.map(parseContributor);
  }
}

function listPage(value: unknown): ListPage<unknown> {
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return { items: [] };
  return value as ListPage<unknown>;
}
