/** The change request page: subject, status, who and when, then each change with its diff. */
import type { RevisionChange } from '../content/diff-revision-trees';
import type { ChangeRequestRow } from '../resources/change-requests/change-request-queries';
import type { ChangeRequestDiff, ViewChange } from './change-request-diff';
import { pageHref } from './content-view';
import { renderLineDiff } from './diff-html';
import { markup, type SafeHtml } from './safe-html';

export interface ChangeRequestViewInput {
  row: ChangeRequestRow;
  authorName: string;
  /** `/app/s/<space>/~/changes/<number>`: its pages are under it. */
  linkBase: string;
  diff: ChangeRequestDiff;
}

const CHANGE_LABELS: Record<RevisionChange['type'], string> = {
  page_created: 'Page added',
  page_deleted: 'Page deleted',
  page_edited: 'Page edited',
  page_moved: 'Page moved',
  file_created: 'File added',
  file_deleted: 'File deleted',
  file_edited: 'File edited',
};

export function changeRequestTitle(row: ChangeRequestRow): string {
  return `#${row.number} ${row.subject || 'Untitled change request'}`;
}

function changeHeading(change: RevisionChange, linkBase: string): SafeHtml {
  const label = CHANGE_LABELS[change.type];
  if (!('page' in change)) return markup`${label}: <strong>${change.file.name}</strong>`;
  const { page } = change;
  const name =
    change.type !== 'page_deleted' && page.type === 'document'
      ? markup`<a href="${pageHref(linkBase, page.path)}">${page.title}</a>`
      : markup`<strong>${page.title}</strong>`;
  const edited =
    change.type === 'page_edited'
      ? markup` <span class="meta">(${Object.keys(change.attributes).join(', ')})</span>`
      : '';
  return markup`${label}: ${name} <span class="meta">/${page.path}</span>${edited}`;
}

function changeItem({ change, diff }: ViewChange, linkBase: string): SafeHtml {
  const title = 'page' in change ? change.page.title : change.file.name;
  return markup`<li>
    <h3>${changeHeading(change, linkBase)}</h3>
    ${diff === undefined ? '' : renderLineDiff(diff, `Changes to ${title}`)}
  </li>`;
}

export function renderChangeRequest(input: ChangeRequestViewInput): SafeHtml {
  const { row, diff, linkBase } = input;
  const merged = row.merged_at ? markup`, merged ${row.merged_at}` : '';
  const list =
    diff.changes.length === 0
      ? markup`<p>This change request changes nothing yet.</p>`
      : markup`<ol class="changes">
          ${diff.changes.map((change) => changeItem(change, linkBase))}
        </ol>`;
  const more = diff.more > 0 ? markup`<p class="meta">And ${diff.more} more changes.</p>` : '';
  return markup`<h1>${changeRequestTitle(row)}</h1>
    <p>
      <span class="badge">${row.status}</span>
      <span class="meta"
        >opened by ${input.authorName} on ${row.created_at}, updated
        ${row.updated_at}${merged}</span
      >
    </p>
    <p><a href="${pageHref(linkBase, '')}">Browse the pages of this change request</a></p>
    <h2>Changes</h2>
    ${list}${more}`;
}
