import type { OutboxPageFields } from './outbox-change';
import type { OutboxPayload } from './outbox-row';

/** `next`'s Markdown and fields over `current`'s (the latest value of each wins). */
export function mergeContent(current: OutboxPayload, next: OutboxPayload): OutboxPayload {
  const result = { ...current };
  if (next.markdown !== undefined) result.markdown = next.markdown;
  if (next.fields !== undefined) result.fields = { ...current.fields, ...next.fields };
  return result;
}

/** `payload` without what `newer` sets (its Markdown, its fields). */
export function withoutContent(payload: OutboxPayload, newer: OutboxPayload): OutboxPayload {
  const result = { ...payload };
  if (newer.markdown !== undefined) delete result.markdown;
  if (newer.fields !== undefined && result.fields !== undefined) {
    const fields: Record<string, unknown> = { ...result.fields };
    for (const key of Object.keys(newer.fields)) delete fields[key];
    if (Object.keys(fields).length > 0) result.fields = fields as OutboxPageFields;
    else delete result.fields;
  }
  return result;
}

/**
 * The latest move wins. A bare `at` reorders among the current siblings, so it keeps the parent
 * an earlier move chose; a new parent without `at` appends, so it drops the earlier position.
 */
export function mergePlacement(current: OutboxPayload, next: OutboxPayload): OutboxPayload {
  const result = { ...current };
  if (next.into !== undefined) {
    result.into = next.into;
    delete result.at;
  }
  if (next.at !== undefined) result.at = next.at;
  return result;
}
