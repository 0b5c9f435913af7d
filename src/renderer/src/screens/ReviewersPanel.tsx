import { useId, useState, type FormEvent } from 'react';
import type { ChangeRequestDetail } from '../../../shared/contract/change-requests';
import { Button } from '../components/Button';
import { StatusPill } from '../components/StatusPill';
import type { ReviewAction } from '../hooks/use-review-action';
import { plural, relativeTime } from '../model/format-time';

/** Reviews given, reviewers asked (add, remove), and who contributed. */
export function ReviewersPanel({
  detail,
  action,
}: {
  detail: ChangeRequestDetail;
  action: ReviewAction;
}) {
  const now = new Date();
  const ref = { space: detail.spaceId, number: detail.number };
  const [name, setName] = useState('');
  const inputId = useId();
  const change = (add: string[], remove: string[], message: string) =>
    void action.run('setReviewers', { ...ref, add, remove }, () => ({ kind: 'done', message }));
  const add = (event: FormEvent) => {
    event.preventDefault();
    const who = name.trim();
    if (who === '') return;
    change([who], [], `Asked ${who} to review.`);
    setName('');
  };
  return (
    <section className="card stack" aria-labelledby="reviewers-title">
      <h2 id="reviewers-title">Reviews and reviewers</h2>
      {detail.reviews.length === 0 ? (
        <p className="muted">No reviews yet.</p>
      ) : (
        <ul className="plain-list" aria-label="Reviews">
          {detail.reviews.map((review, i) => (
            <li key={`${review.reviewer.id}-${i}`} className="row">
              <span>{review.reviewer.displayName}</span>
              <StatusPill tone={review.status === 'approved' ? 'ok' : 'danger'}>
                {review.status === 'approved' ? 'Approved' : 'Changes requested'}
              </StatusPill>
              {review.outdated ? <span className="tag">Superseded</span> : null}
              <span className="muted">{relativeTime(review.createdAt, now)}</span>
            </li>
          ))}
        </ul>
      )}
      <h3>Requested reviewers</h3>
      {detail.requestedReviewers.length === 0 ? (
        <p className="muted">Nobody is asked to review.</p>
      ) : (
        <ul className="plain-list" aria-label="Requested reviewers">
          {detail.requestedReviewers.map(({ user }) => (
            <li key={user.id} className="row">
              <span>{user.displayName}</span>
              <Button
                aria-label={`Remove reviewer ${user.displayName}`}
                disabled={action.busy}
                onClick={() => change([], [user.id], `${user.displayName} is no longer asked.`)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="row" onSubmit={add}>
        <div className="field">
          <label htmlFor={inputId}>Add a reviewer</label>
          <input
            id={inputId}
            value={name}
            placeholder="Name or email"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={action.busy || name.trim() === ''}>
          Add reviewer
        </Button>
      </form>
      <h3>Contributors</h3>
      {detail.contributors.length === 0 ? (
        <p className="muted">No contributions recorded.</p>
      ) : (
        <ul className="plain-list" aria-label="Contributors">
          {detail.contributors.map((c) => (
            <li key={`${c.user.id}-${c.actionType}`}>
              {c.user.displayName}{' '}
              <span className="muted">
                {plural(c.count, c.actionType === 'edit' ? 'edit' : 'comment')} · last{' '}
                {relativeTime(c.updatedAt, now)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
