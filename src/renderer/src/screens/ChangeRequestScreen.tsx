import { useEffect } from 'react';
import type { ChangeRequestDetail } from '../../../shared/contract/change-requests';
import { ErrorState } from '../components/ErrorState';
import { StatusPill } from '../components/StatusPill';
import { useCommand } from '../hooks/use-command';
import { useReviewAction, type ReviewAction } from '../hooks/use-review-action';
import { relativeTime } from '../model/format-time';
import { REVIEW_EVENTS, STATE_LABELS, WAIT_LABELS } from '../model/review-view';
import { routeHash, type ChangeRequestView } from '../model/route';
import { ActionOutcomeView } from './ActionOutcomeView';
import { ChangeRequestActions } from './ChangeRequestActions';
import { ChangeRequestDiffView } from './ChangeRequestDiffView';
import { ChecksPanel } from './ChecksPanel';
import { CommentThreads } from './CommentThreads';
import { ReviewersPanel } from './ReviewersPanel';

/** One change request from the mirror: its overview (actions, checks, reviews) or its diff. */
export function ChangeRequestScreen({
  space,
  number,
  view,
}: {
  space: string;
  number: number;
  view: ChangeRequestView;
}) {
  const { state, reload } = useCommand('changeRequest', { space, number }, REVIEW_EVENTS);
  if (state.status === 'loading') return <p>Loading the change request…</p>;
  if (state.status === 'error') {
    const gone = state.error.kind === 'unknown-change-request';
    return (
      <div className="stack">
        <ErrorState
          title={
            gone ? 'This change request is not mirrored' : 'The change request could not be read'
          }
          message={state.error.message}
          onRetry={gone ? undefined : reload}
        />
        <p>
          <a href="#/review">Back to the review inbox</a>
        </p>
      </div>
    );
  }
  return <ChangeRequestPage detail={state.data} view={view} onChanged={reload} />;
}

function ChangeRequestPage({
  detail,
  view,
  onChanged,
}: {
  detail: ChangeRequestDetail;
  view: ChangeRequestView;
  onChanged: () => void;
}) {
  const action = useReviewAction();
  const { outcome } = action;
  // What an action did shows at once, before the engine's reviewChanged event arrives.
  useEffect(() => {
    if (outcome && outcome.kind !== 'failed') onChanged();
  }, [outcome, onChanged]);
  const state = STATE_LABELS[detail.status];
  const wait = detail.waitingForYou ? WAIT_LABELS[detail.waitingForYou] : null;
  const tab = (name: ChangeRequestView) =>
    routeHash({
      screen: 'change-request',
      space: detail.spaceId,
      number: detail.number,
      view: name,
    });
  return (
    <div className="stack">
      <p>
        <a href="#/review">Back to the review inbox</a>
      </p>
      <h1>
        <span className="muted">#{detail.number}</span> {detail.subject || 'Untitled'}
      </h1>
      <div className="row">
        <StatusPill tone={state.tone}>{state.label}</StatusPill>
        {wait ? <StatusPill tone={wait.tone}>{wait.label}</StatusPill> : null}
        {detail.outdated ? <StatusPill tone="warn">Outdated</StatusPill> : null}
        {detail.pinned ? <span className="tag">Pinned</span> : null}
        <span className="muted">
          {detail.organization} / {detail.space} · by {detail.author.displayName}
        </span>
      </div>
      <nav className="tabs" aria-label="Change request views">
        <a href={tab('overview')} aria-current={view === 'overview' ? 'page' : undefined}>
          Overview
        </a>
        <a href={tab('changes')} aria-current={view === 'changes' ? 'page' : undefined}>
          Changes
        </a>
      </nav>
      {view === 'overview' ? (
        <Overview detail={detail} action={action} />
      ) : (
        <ChangeRequestDiffView space={detail.spaceId} number={detail.number} />
      )}
    </div>
  );
}

function Overview({ detail, action }: { detail: ChangeRequestDetail; action: ReviewAction }) {
  const now = new Date();
  return (
    <>
      <ChangeRequestActions detail={detail} action={action} />
      <ActionOutcomeView outcome={action.outcome} onDismiss={action.dismiss} />
      <div className="cr-grid">
        <ChecksPanel detail={detail} action={action} />
        <section className="card stack" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <dl className="facts">
            <dt>Created</dt>
            <dd>{relativeTime(detail.createdAt, now)}</dd>
            <dt>Updated</dt>
            <dd>{relativeTime(detail.updatedAt, now)}</dd>
            <dt>Revision</dt>
            <dd className="mono">{detail.revision}</dd>
            <dt>Based on</dt>
            <dd className="mono">{detail.baseRevision}</dd>
            <dt>Read from the server</dt>
            <dd>{relativeTime(detail.fetchedAt, now)}</dd>
          </dl>
        </section>
      </div>
      <ReviewersPanel detail={detail} action={action} />
      <CommentThreads space={detail.spaceId} number={detail.number} page={null} title="Comments" />
    </>
  );
}
