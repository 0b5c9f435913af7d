import { useState, type FormEvent } from 'react';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { useAction } from '../hooks/use-action';

/**
 * Settings → Move folder: the mirror moves with its files to a new place (absent, or an empty
 * folder); the sync pauses for the move and goes on from there, nothing downloaded again.
 */
export function MoveFolderDialog({
  open,
  current,
  onClose,
  onMoved,
}: {
  open: boolean;
  current: string;
  onClose: () => void;
  onMoved: () => void;
}) {
  const action = useAction();
  const [target, setTarget] = useState('');
  const move = async (event?: FormEvent) => {
    event?.preventDefault();
    if (await action.run('moveFolder', { folder: target.trim() })) {
      setTarget('');
      onMoved();
    }
  };
  return (
    <Dialog
      open={open}
      title="Move the Quire folder"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose} disabled={action.busy}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={() => void move()}
            disabled={action.busy || target.trim() === ''}
          >
            {action.busy ? 'Moving…' : 'Move'}
          </Button>
        </>
      }
    >
      <form className="form" onSubmit={(event) => void move(event)}>
        <p>
          Every file in <span className="mono">{current}</span> moves to the new folder. Syncing
          pauses during the move and goes on from there; nothing is downloaded or sent again.
        </p>
        <div className="field">
          <label htmlFor="move-target">New folder (full path)</label>
          <input
            id="move-target"
            className="mono"
            value={target}
            placeholder="/home/me/Documents/Quire"
            aria-describedby="move-target-hint"
            aria-invalid={action.error?.kind === 'invalid-argument' ? true : undefined}
            onChange={(event) => setTarget(event.target.value)}
          />
          <span className="hint" id="move-target-hint">
            A folder that does not exist yet, or an empty one.
          </span>
        </div>
        {action.error ? (
          <p className="alert" role="alert">
            {action.error.message}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
