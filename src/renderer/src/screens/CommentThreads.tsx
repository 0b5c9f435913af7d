import { useId, useState } from 'react';
import { Button } from '../components/Button';
import { ErrorState } from '../components/ErrorState';
import { useReviewAction } from '../hooks/use-review-action';
import { useCommand } from '../hooks/use-command';
import { REVIEW_EVENTS } from '../model/review-view';
import { ActionOutcomeView } from './ActionOutcomeView';
import { CommentThreadView } from './CommentThreadView';
import { MARKDOWN_MAX_CHARS } from '../model/markdown-tree';

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
  const { state, reload } = useCommand('comments', { ...where, pageId: page }, REVIEW_EVENTS);
  const action = useReviewAction();
  const headingId = useId();
  // A host without comments says so once, quietly, and offers no box to write in.
  const unavailable = state.status === 'error' && state.error.kind === 'unavailable';
  const post = async (body: string) => {
    const posted = await action.run('postComment', { ...where, pageId: page, body });
    if (posted) reload();
    return posted;
  };
  return (
    <section className="stack comments" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {state.status === 'loading' ? <p>Loading comments…</p> : null}
      {state.status === 'error' && unavailable ? (
        <p className="muted">Comments are not available here: {state.error.message}</p>
      ) : null}
      {state.status === 'error' && !unavailable ? (
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
      {unavailable ? null : <NewComment onPost={post} />}
      {action.outcome ? (
        <ActionOutcomeView outcome={action.outcome} onDismiss={action.dismiss} />
      ) : null}
    </section>
  );
}

/** The box to start a thread; cleared once the engine took the comment. */
function NewComment({ onPost }: { onPost: (body: string) => Promise<boolean> }) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const boxId = useId();
  const post = async () => {
    const text = body.trim();
    if (text === '') return;
    setBusy(true);
    if (await onPost(text)) setBody('');
    setBusy(false);
  };
  return (
    <>
      <div className="field">
        <label htmlFor={boxId}>New comment</label>
        <span className="hint">Markdown. Saved at once, sent when online.</span>
        <textarea
          maxLength={MARKDOWN_MAX_CHARS}
          id={boxId}
          value={body}
          onChange={(event) => setBody(event.target.value)}
        />
      </div>
      <div className="row">
        <Button variant="primary" disabled={busy || body.trim() === ''} onClick={() => void post()}>
          Comment
        </Button>
      </div>
    </>
  );
}
