import { useId, useState } from 'react';
import type { CommentItemRef, CommentView } from '../../../shared/contract/review';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { Markdown } from '../components/Markdown';
import type { ReviewAction } from '../hooks/use-review-action';
import { relativeTime } from '../model/format-time';
import { MARKDOWN_MAX_CHARS } from '../model/markdown-tree';

const PENDING: Record<NonNullable<CommentView['pending']>, string> = {
  create: 'Not sent yet',
  edit: 'Edit not sent yet',
  delete: 'Deletion not sent yet',
  react: 'Reaction not sent yet',
  resolve: 'Not sent yet',
};

/** Reactions offered besides those already there. */
const OFFERED = ['👍', '🎉', '❤️', '👀'];

/** One comment or reply: who and when, its Markdown, its reactions, and edit and delete. */
export function CommentItem({
  comment,
  item,
  action,
  onChanged,
}: {
  comment: CommentView;
  item: CommentItemRef;
  action: ReviewAction;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const editId = useId();
  const who = comment.author.displayName;
  const act = async (run: () => Promise<boolean>) => {
    if (await run()) onChanged();
  };
  const save = () => {
    if (editing === null || editing.trim() === '') return;
    const body = editing;
    setEditing(null);
    void act(() => action.run('editComment', { ...item, body }));
  };
  const remove = () => {
    setConfirmDelete(false);
    void act(() => action.run('deleteComment', item));
  };
  const react = (emoji: string, add: boolean) =>
    void act(() => action.run('reactToComment', { ...item, emoji, add }));
  const shown = new Set(comment.reactions.map((r) => r.emoji));
  // Kept only here (deleted on the server, or refused): the user can still let it go.
  const stranded = comment.problem !== null && !comment.canEdit;
  return (
    <article className="comment" aria-label={`Comment by ${who}`}>
      <header className="row comment-head">
        <strong>{who}</strong>
        <span className="muted">
          {relativeTime(comment.postedAt, new Date())}
          {comment.editedAt ? ' · edited' : ''}
        </span>
        {comment.pending ? <span className="tag pending">{PENDING[comment.pending]}</span> : null}
      </header>
      {comment.problem ? (
        <p className="alert" role="alert">
          {comment.problem}
        </p>
      ) : null}
      {editing === null ? (
        <Markdown source={comment.body} />
      ) : (
        <div className="field">
          <label htmlFor={editId}>Edit the comment</label>
          <textarea
            maxLength={MARKDOWN_MAX_CHARS}
            id={editId}
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <div className="row">
            <Button variant="primary" disabled={editing.trim() === ''} onClick={save}>
              Save edit
            </Button>
            <Button onClick={() => setEditing(null)}>Cancel edit</Button>
          </div>
        </div>
      )}
      <div className="row reactions" role="group" aria-label={`Reactions to ${who}'s comment`}>
        {comment.reactions.map((r) => (
          <button
            key={r.emoji}
            type="button"
            className="reaction"
            aria-pressed={r.mine}
            aria-label={`${r.emoji} ${r.count}${r.mine ? ', yours' : ''}`}
            disabled={action.busy}
            onClick={() => react(r.emoji, !r.mine)}
          >
            {r.emoji} {r.count}
          </button>
        ))}
        {OFFERED.filter((emoji) => !shown.has(emoji)).map((emoji) => (
          <button
            key={emoji}
            type="button"
            className="reaction offer"
            aria-label={`React with ${emoji}`}
            disabled={action.busy}
            onClick={() => react(emoji, true)}
          >
            {emoji}
          </button>
        ))}
      </div>
      {comment.canEdit && editing === null && comment.pending !== 'delete' ? (
        <div className="row">
          <Button onClick={() => setEditing(comment.body)}>Edit</Button>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete…
          </Button>
        </div>
      ) : null}
      {stranded ? (
        <div className="row">
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Discard…
          </Button>
        </div>
      ) : null}
      <Dialog
        open={confirmDelete}
        title={stranded ? 'Discard what was not sent?' : 'Delete this comment?'}
        onClose={() => setConfirmDelete(false)}
        actions={
          <>
            <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
            <Button variant="danger" onClick={remove}>
              {stranded ? 'Discard' : 'Delete comment'}
            </Button>
          </>
        }
      >
        <p>
          {stranded
            ? 'It never reached the server and is removed from this computer: copy what you need first.'
            : 'It is removed for everyone once the server gets it.'}
        </p>
      </Dialog>
    </article>
  );
}
