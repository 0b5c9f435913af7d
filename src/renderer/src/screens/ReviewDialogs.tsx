import { useEffect, useId, useState } from 'react';
import type { ReviewVerdict } from '../../../shared/contract/review';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { MARKDOWN_MAX_CHARS } from '../model/markdown-tree';

/** Longest subject the dialog accepts (the server refuses longer ones anyway). */
const SUBJECT_MAX = 200;

/** A new subject for the change request; opens with the current one. */
export function RenameDialog({
  open,
  subject,
  onSave,
  onClose,
}: {
  open: boolean;
  subject: string;
  onSave: (subject: string) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(subject);
  const id = useId();
  useEffect(() => {
    if (open) setText(subject);
  }, [open, subject]);
  const trimmed = text.trim();
  return (
    <Dialog
      open={open}
      title="Rename the change request"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={trimmed === '' || trimmed === subject}
            onClick={() => onSave(trimmed)}
          >
            Save subject
          </Button>
        </>
      }
    >
      <div className="field">
        <label htmlFor={id}>Subject</label>
        <input
          id={id}
          value={text}
          maxLength={SUBJECT_MAX}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
    </Dialog>
  );
}

/** Approve, or request changes, with an optional comment. */
export function ReviewDialog({
  open,
  onReview,
  onClose,
}: {
  open: boolean;
  onReview: (verdict: ReviewVerdict, comment: string | null) => void;
  onClose: () => void;
}) {
  const [comment, setComment] = useState('');
  const id = useId();
  useEffect(() => {
    if (open) setComment('');
  }, [open]);
  const said = comment.trim() === '' ? null : comment.trim();
  return (
    <Dialog
      open={open}
      title="Review this change request"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => onReview('changes-requested', said)}>Request changes</Button>
          <Button variant="primary" onClick={() => onReview('approved', said)}>
            Approve
          </Button>
        </>
      }
    >
      <div className="field">
        <label htmlFor={id}>Review comment (optional)</label>
        <span className="hint">Markdown. Reviews need a connection to the server.</span>
        <textarea
          maxLength={MARKDOWN_MAX_CHARS}
          id={id}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
    </Dialog>
  );
}
