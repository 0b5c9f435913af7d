import { useId, useState } from 'react';
import { Button } from '../components/Button';
import { ErrorState } from '../components/ErrorState';
import { useReviewAction } from '../hooks/use-review-action';
import { useCommand } from '../hooks/use-command';
import { ActionOutcomeView } from './ActionOutcomeView';
import { CommentThreadView } from './CommentThreadView';

/**
 * The comment threads of a change request (`page` null: all of them) or of one of its pages,
 * and a box to start a new one. Changes are queued offline and show at once, marked pending.
 */
export function CommentThreads({
  space,
  number,
  page,
  title,
}: {
  space: string;
  number: number;
  page: string | null;
  title: string;
}) {
  const where = { space, number };
  const { state, reload } = useCommand('comments', { ...where, pageId: page }, ['reviewChanged']);
  const action = useReviewAction();
  const [body, setBody] = useState('');
  const boxId = useId();
  const headingId = useId();
  const post = async () => {
    const text = body.trim();
    if (text === '') return;
    if (await action.run('postComment', { ...where, pageId: page, body: text })) {
      setBody('');
      reload();
    }
  };
  return (
    <section className="stack comments" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {state.status === 'loading' ? <p>Loading comments…</p> : null}
      {state.status === 'error' ? (
        <ErrorState
          title="Comments could not be read"
          message={state.error.message}
          onRetry={reload}
        />
      ) : null}
      {state.status === 'ready' && state.data.length === 0 ? (
        <p className="muted">No comments yet.</p>
      ) : null}
      {state.status === 'ready' && state.data.length > 0 ? (
        <ul className="plain-list stack">
          {state.data.map((thread) => (
            <CommentThreadView
              key={thread.id}
              thread={thread}
              where={where}
              showPage={page === null}
              onChanged={reload}
            />
          ))}
        </ul>
      ) : null}
      <div className="field">
        <label htmlFor={boxId}>New comment</label>
        <span className="hint">Markdown. Saved at once, sent when online.</span>
        <textarea id={boxId} value={body} onChange={(event) => setBody(event.target.value)} />
      </div>
      {action.outcome ? (
        <ActionOutcomeView outcome={action.outcome} onDismiss={action.dismiss} />
      ) : null}
      <div className="row">
        <Button
          variant="primary"
          disabled={action.busy || body.trim() === ''}
          onClick={() => void post()}
        >
          Comment
        </Button>
      </div>
    </section>
  );
}
