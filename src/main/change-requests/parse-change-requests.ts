import type { ChangeRequestReviewStatus, ChangeRequestStatus } from '@gitbook/api';
import { RemoteProtocolError } from '../remote/errors';
import { parseUser } from '../remote/parse-remote';
import type {
  RemoteChangeRequest,
  RemoteContributor,
  RemoteRequestedReviewer,
  RemoteReview,
} from '../sync-ports';

/**
 * Reads the change-request objects of the published API into the mirror's types, keeping known
 * fields only; a missing required field is a RemoteProtocolError naming it.
 */

type Json = Record<string, unknown>;

const STATUSES = new Set(['draft', 'open', 'archived', 'merged']);
const REVIEW_STATUSES = new Set(['approved', 'changes-requested']);

function object(value: unknown, what: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RemoteProtocolError(`${what} is not an object`);
  }
  return value as Json;
}

function text(json: Json, key: string, what: string): string {
  const value = json[key];
  if (typeof value !== 'string' || value === '') {
    throw new RemoteProtocolError(`${what} has no \`${key}\``);
  }
  return value;
}

function optionalText(json: Json, key: string): string | undefined {
  const value = json[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function count(json: Json, key: string): number {
  const value = json[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

export function parseChangeRequest(value: unknown): RemoteChangeRequest {
  const json = object(value, 'A change request');
  const what = `Change request ${typeof json['id'] === 'string' ? json['id'] : '?'}`;
  const number = json['number'];
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    throw new RemoteProtocolError(`${what} has no \`number\``);
  }
  const status = text(json, 'status', what);
  if (!STATUSES.has(status)) throw new RemoteProtocolError(`${what} has status "${status}"`);
  const result: RemoteChangeRequest = {
    id: text(json, 'id', what),
    number,
    status: status as ChangeRequestStatus,
    subject: typeof json['subject'] === 'string' ? json['subject'] : '',
    space: text(json, 'space', what),
    revision: text(json, 'revision', what),
    revisionInitial: text(json, 'revisionInitial', what),
    outdated: json['outdated'] === true,
    comments: count(json, 'comments'),
    createdAt: text(json, 'createdAt', what),
    updatedAt: text(json, 'updatedAt', what),
    createdBy: parseUser(json['createdBy']),
  };
  for (const key of ['revisionMergedAncestor', 'revisionMerged', 'mergedAt'] as const) {
    const found = optionalText(json, key);
    if (found !== undefined) result[key] = found;
  }
  const app = optionalText(object(json['urls'] ?? {}, `${what}'s urls`), 'app');
  if (app !== undefined) result.urls = { app };
  return result;
}

export function parseReview(value: unknown): RemoteReview {
  const json = object(value, 'A review');
  const status = text(json, 'status', 'A review');
  if (!REVIEW_STATUSES.has(status)) throw new RemoteProtocolError(`A review has status ${status}`);
  return {
    id: text(json, 'id', 'A review'),
    status: status as ChangeRequestReviewStatus,
    outdated: json['outdated'] === true,
    revision: text(json, 'revision', 'A review'),
    createdAt: text(json, 'createdAt', 'A review'),
    reviewer: parseUser(json['reviewer']),
  };
}

/** Team requests carry no user: they are left out (undefined). */
export function parseRequestedReviewer(value: unknown): RemoteRequestedReviewer | undefined {
  const json = object(value, 'A requested reviewer');
  if (json['user'] === undefined) return undefined;
  return {
    user: parseUser(json['user']),
    createdAt: text(json, 'createdAt', 'A requested reviewer'),
  };
}

export function parseContributor(value: unknown): RemoteContributor {
  const json = object(value, 'A contributor');
  const action = json['actionType'] === 'comment' ? 'comment' : 'edit';
  return {
    user: parseUser(json['user']),
    count: count(json, 'count'),
    updatedAt: text(json, 'updatedAt', 'A contributor'),
    actionType: action,
  };
}
