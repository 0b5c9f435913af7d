import { createHash } from 'node:crypto';
import type {
  OutboxFile,
  OutboxItem,
  OutboxItemKind,
  OutboxPageFields,
  OutboxPageRef,
} from './outbox-change';

/** A row of `outbox`, as stored. */
export interface OutboxRow {
  id: number;
  space_id: string;
  kind: OutboxItemKind;
  page_id: string | null;
  local_key: string | null;
  payload: string;
  created_at: string;
  updated_at: string;
  state: OutboxItem['state'];
  batch_id: string | null;
  batch_position: number | null;
  solo: number;
  /** The largest batch it may go in (0: any); set while a refused batch is split. */
  batch_cap: number;
  error: string | null;
}

/** The JSON in `outbox.payload`. Absent keys mean "not changed". */
export interface OutboxPayload {
  markdown?: string;
  fields?: OutboxPageFields;
  into?: OutboxPageRef | null;
  at?: number;
  file?: OutboxFile;
}

export function payloadOf(row: OutboxRow): OutboxPayload {
  return JSON.parse(row.payload) as OutboxPayload;
}

export function itemOf(row: OutboxRow): OutboxItem {
  const payload = payloadOf(row);
  return {
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    pageId: row.page_id,
    localKey: row.local_key,
    state: row.state,
    ...payload,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Whether an update carries nothing left to send. */
export function isEmptyUpdate(payload: OutboxPayload): boolean {
  return (
    payload.markdown === undefined &&
    (payload.fields === undefined || Object.keys(payload.fields).length === 0) &&
    payload.into === undefined &&
    payload.at === undefined
  );
}

/** Longest `ref` the published API accepts. */
const MAX_REF_LENGTH = 256;

/**
 * The batch-local `ref` an insert is sent with: its local key, or (when longer than the API
 * allows) a digest of it. Deterministic, so the response's refs map back to local keys.
 */
export function refFor(localKey: string): string {
  return localKey.length <= MAX_REF_LENGTH
    ? localKey
    : `quire-${createHash('sha256').update(localKey).digest('hex')}`;
}
