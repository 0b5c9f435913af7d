import type { KeyboardEvent } from 'react';
import type { ChangeRequestSummary } from '../../../shared/contract/change-requests';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { StatusPill } from '../components/StatusPill';
import { useCommand } from '../hooks/use-command';
import { plural, relativeTime } from '../model/format-time';
import { REVIEW_EVENTS, STATE_LABELS, WAIT_LABELS, inboxGroups } from '../model/review-view';
import { routeHash } from '../model/route';

/** Change requests of every synced space, what waits for the user first. Read from the mirror. */
export function ReviewInboxScreen() {
  const { state, reload } = useCommand('changeRequests', {}, REVIEW_EVENTS);
  if (state.status === 'loading') return <p>Loading change requests…</p>;
  if (state.status === 'error')
    return (
      <ErrorState
        title="Change requests could not be read"
        message={state.error.message}
        onRetry={reload}
      />
    );
  const { waiting, others } = inboxGroups(state.data);
  return (
    <div className="stack">
      <h1>Review</h1>
      {state.data.length === 0 ? (
        <EmptyState title="No change requests">
          Open and draft change requests of your synced spaces, and those you are asked to review,
          show up here after the next sync. They stay readable offline.
        </EmptyState>
      ) : (
        <>
          <InboxGroup title="Waiting for you" items={waiting} empty="Nothing waits for you." />
          <InboxGroup title="Other change requests" items={others} empty="No others." />
        </>
      )}
    </div>
  );
}

function InboxGroup({
  title,
  items,
  empty,
}: {
  title: string;
  items: ChangeRequestSummary[];
  empty: string;
}) {
  const now = new Date();
  return (
    <section className="stack" aria-label={title}>
      <h2>
        {title} <span className="muted">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="list inbox" onKeyDown={moveFocus}>
          {items.map((item) => (
            <InboxItem key={`${item.spaceId}/${item.number}`} item={item} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InboxItem({ item, now }: { item: ChangeRequestSummary; now: Date }) {
  const state = STATE_LABELS[item.status];
  const wait = item.waitingForYou ? WAIT_LABELS[item.waitingForYou] : null;
  return (
    <li className="card inbox-item">
      <div className="row inbox-title">
        <a
          className="inbox-link"
          href={routeHash({
            screen: 'change-request',
            space: item.spaceId,
            number: item.number,
            view: 'overview',
          })}
        >
          <span className="muted">#{item.number}</span> {item.subject || 'Untitled'}
        </a>
        {item.pinned ? <span className="tag">Pinned</span> : null}
      </div>
      <div className="row">
        <StatusPill tone={state.tone}>{state.label}</StatusPill>
        {wait ? <StatusPill tone={wait.tone}>{wait.label}</StatusPill> : null}
        {item.outdated ? <StatusPill tone="warn">Outdated</StatusPill> : null}
        <span className="muted">{plural(item.comments, 'open comment')}</span>
      </div>
      <p className="muted">
        {item.organization} / {item.space} · by {item.author.displayName} · updated{' '}
        {relativeTime(item.updatedAt, now)}
      </p>
    </li>
  );
}

/** Up and down arrows move between the change requests' links (Tab still works). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const links = [...document.querySelectorAll<HTMLAnchorElement>('.inbox-link')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  const next = links[at + (event.key === 'ArrowDown' ? 1 : -1)];
  if (!next) return;
  event.preventDefault();
  next.focus();
}
