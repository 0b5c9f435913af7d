import { useId, useState } from 'react';
import type { CommentsRef, CommentThread } from '../../../shared/contract/review';
import { Button } from '../components/Button';
import { useReviewAction } from '../hooks/use-review-action';
import { ActionOutcomeView } from './ActionOutcomeView';
import { CommentItem } from './CommentItem';
import { MARKDOWN_MAX_CHARS } from '../model/markdown-tree';

/** A thread: the comment, its replies, a reply box, and resolve or reopen. */
export function CommentThreadView({
  thread,
  where,
  showPage,
  onChanged,
}: {
  thread: CommentThread;
  where: CommentsRef;
  showPage: boolean;
  onChanged: () => void;
}) {
  const action = useReviewAction();
  const [reply, setReply] = useState('');
  const replyId = useId();
  const after = async (run: Promise<boolean>) => {
    if (await run) onChanged();
  };
  const send = () => {
    const body = reply.trim();
    if (body === '') return;
    setReply('');
    void after(action.run('replyToComment', { ...where, commentId: thread.id, body }));
  };
  const itemRef = (replyId: string | null) => ({ ...where, commentId: thread.id, replyId });
  return (
    <li className={`card thread${thread.resolved ? ' resolved' : ''}`}>
      {showPage && thread.page ? (
        <p className="muted">
          On <span className="mono">{thread.page.title || thread.page.path}</span>
        </p>
      ) : null}
      {thread.resolved ? <span className="tag">Resolved</span> : null}
      <CommentItem comment={thread} item={itemRef(null)} action={action} onChanged={onChanged} />
      {thread.replies.length > 0 ? (
        <ul className="plain-list replies" aria-label="Replies">
          {thread.replies.map((r) => (
            <li key={r.id}>
              <CommentItem comment={r} item={itemRef(r.id)} action={action} onChanged={onChanged} />
            </li>
          ))}
        </ul>
      ) : null}
      {action.outcome ? (
        <ActionOutcomeView outcome={action.outcome} onDismiss={action.dismiss} />
      ) : null}
      <div className="field">
        <label htmlFor={replyId}>Reply to {thread.author.displayName}</label>
        <textarea
          maxLength={MARKDOWN_MAX_CHARS}
          id={replyId}
          value={reply}
          onChange={(event) => setReply(event.target.value)}
        />
      </div>
      <div className="row">
        <Button disabled={action.busy || reply.trim() === ''} onClick={send}>
          Reply
        </Button>
        <Button
          disabled={action.busy}
          onClick={() =>
            void after(
              action.run('setCommentResolved', {
                ...where,
                commentId: thread.id,
                resolved: !thread.resolved,
              }),
            )
          }
        >
          {thread.resolved ? 'Reopen' : 'Resolve'}
        </Button>
      </div>
    </li>
  );
}
