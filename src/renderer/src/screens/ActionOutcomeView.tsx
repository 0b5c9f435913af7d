import { Button } from '../components/Button';
import type { ActionOutcome } from '../model/action-outcome';

/**
 * What came of the last action: a success in a status line, a failure or the pages in conflict
 * in an alert, so screen readers announce both.
 */
export function ActionOutcomeView({
  outcome,
  onDismiss,
}: {
  outcome: ActionOutcome | null;
  onDismiss: () => void;
}) {
  if (outcome === null) return <div role="status" className="visually-hidden" />;
  if (outcome.kind === 'done')
    return (
      <div role="status" className="alert ok outcome">
        <p>{outcome.message}</p>
        <Button onClick={onDismiss}>Dismiss</Button>
      </div>
    );
  if (outcome.kind === 'failed')
    return (
      <div role="alert" className="alert outcome">
        <p>
          <strong>{outcome.title}.</strong> {outcome.message}
        </p>
        <Button onClick={onDismiss}>Dismiss</Button>
      </div>
    );
  return (
    <div role="alert" className="alert warn outcome" aria-label="Conflicts">
      <p>{outcome.message}</p>
      <ul>
        {outcome.pages.map((page, i) => (
          <li key={page.pageId ?? `at-${i}`}>
            {page.title || 'Untitled'} <span className="mono muted">{page.path}</span>
          </li>
        ))}
      </ul>
      <Button onClick={onDismiss}>Dismiss</Button>
    </div>
  );
}
