import type { PlannedChange } from '../local/classify-local-changes';
import type { LocalContentChange, PageFieldsUpdate } from '../local/local-content-change';
import type { OutboxChange, OutboxPageFields } from '../outbox/outbox-change';
import { pageRef } from './queued-page-ids';

/**
 * A new page's insert key: its ref (or path) plus the push's stamp, unique for the outbox's life
 * (see SpacePusher.push: the stamp carries a random part).
 */
export function localKeyOf(planned: Pick<PlannedChange, 'ref' | 'path'>, stamp: string): string {
  return `${planned.ref ?? planned.path ?? 'page'}@${stamp}`;
}

function fieldsOf(change: PageFieldsUpdate): OutboxPageFields | undefined {
  const fields: OutboxPageFields = {};
  const keys = [
    'title',
    'slug',
    'emoji',
    'icon',
    'description',
    'hidden',
    'noIndex',
    'noRobotsIndex',
  ] as const;
  for (const key of keys) {
    if (change[key] !== undefined) (fields as Record<string, unknown>)[key] = change[key];
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** A planned API change → the outbox's changes (one per uploaded file). */
export function outboxChanges(
  spaceId: string,
  planned: PlannedChange,
  stamp: string,
): OutboxChange[] {
  const change: LocalContentChange = planned.change;
  switch (change.operation) {
    case 'insert_page': {
      const fields = fieldsOf(change);
      return [
        {
          kind: 'insert_page',
          spaceId,
          localKey: localKeyOf(planned, stamp),
          markdown: change.document.markdown,
          ...(fields ? { fields } : {}),
          // Into a page inserted by the same push: named by that insert's local key.
          into:
            planned.intoRef !== undefined
              ? { localKey: localKeyOf({ ref: planned.intoRef }, stamp) }
              : change.into !== undefined
                ? pageRef(change.into)
                : null,
          ...(change.at !== undefined ? { at: change.at } : {}),
        },
      ];
    }
    case 'update_page': {
      const fields = fieldsOf(change);
      const moves = change.into !== undefined || change.at !== undefined;
      return [
        {
          kind: 'update_page',
          spaceId,
          page: pageRef(change.page),
          ...(change.document ? { markdown: change.document.markdown } : {}),
          ...(fields ? { fields } : {}),
          ...(moves
            ? {
                move: {
                  ...(change.into !== undefined
                    ? { into: change.into === null ? null : pageRef(change.into) }
                    : {}),
                  ...(change.at !== undefined ? { at: change.at } : {}),
                },
              }
            : {}),
        },
      ];
    }
    case 'delete_page':
      return [{ kind: 'delete_page', spaceId, page: pageRef(change.page) }];
    case 'insert_files':
      return change.files.map((file, i) => ({
        kind: 'insert_files',
        spaceId,
        localKey: planned.paths?.[i] ?? file.name,
        file,
      }));
  }
}
