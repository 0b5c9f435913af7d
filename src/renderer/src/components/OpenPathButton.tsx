import type { OpenPathTarget } from '../../../shared/contract/host';
import { useAction } from '../hooks/use-action';
import { Button } from './Button';

/**
 * Opens a space's folder or a file of the mirror with the system (`openPath`); its failure (a
 * file gone since) shows next to it. `label` names what opens, for screen readers.
 */
export function OpenPathButton({
  target,
  text,
  label,
}: {
  target: OpenPathTarget;
  text: string;
  label: string;
}) {
  const action = useAction();
  return (
    <span className="open-path">
      <Button
        aria-label={label}
        disabled={action.busy}
        onClick={() => void action.run('openPath', target)}
      >
        {text}
      </Button>
      {action.error ? (
        <span className="field-error" role="alert">
          {action.error.message}
        </span>
      ) : null}
    </span>
  );
}
