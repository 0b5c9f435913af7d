import type { OutboxChange, OutboxPageRef } from './outbox-change';

/** Refuses a change no caller should build (a bug, not bad user input): nothing is queued. */
export function checkOutboxChange(change: OutboxChange): void {
  const fail = (message: string) => {
    throw new TypeError(`Outbox ${change.kind}: ${message}`);
  };
  if (!change.spaceId) fail('spaceId is empty');
  const checkRef = (ref: OutboxPageRef | null | undefined, what: string) => {
    if (ref === null || ref === undefined) return;
    const id = 'pageId' in ref ? ref.pageId : ref.localKey;
    if (typeof id !== 'string' || id.length === 0) fail(`${what} names no page`);
  };
  const checkAt = (at: number | undefined) => {
    if (at !== undefined && (!Number.isInteger(at) || at < 0)) fail('at must be an index ≥ 0');
  };
  switch (change.kind) {
    case 'update_page':
    case 'move_page':
      checkRef(change.page, 'page');
      checkRef(change.move?.into, 'move.into');
      checkAt(change.move?.at);
      break;
    case 'insert_page':
      if (!change.localKey) fail('localKey is empty');
      if (typeof change.markdown !== 'string') fail('markdown is missing');
      checkRef(change.into, 'into');
      checkAt(change.at);
      break;
    case 'delete_page':
      checkRef(change.page, 'page');
      break;
    case 'insert_files':
      if (!change.localKey) fail('localKey is empty');
      if (!change.file?.name || !change.file.contentType) fail('file needs a name and a type');
      break;
  }
}
