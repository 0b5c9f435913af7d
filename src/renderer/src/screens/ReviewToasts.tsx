import { useEffect, useRef, useState } from 'react';
import type { ReviewNotification } from '../../../shared/contract/review';
import { useBridge } from '../hooks/use-bridge';
import { markdownPlainText } from '../model/markdown-tree';
import { routeHash } from '../model/route';

/** How many of the latest review notifications stay on screen. */
const KEPT = 3;

/**
 * What just arrived on the user's change requests (a comment, a reply, a review, a merge), while
 * the app is open: one line each with a link to it, until dismissed. Announced politely.
 */
export function ReviewToasts() {
  const bridge = useBridge();
  const [items, setItems] = useState<{ key: number; note: ReviewNotification }[]>([]);
  const next = useRef(0);
  useEffect(() => {
    if (!bridge) return;
    return bridge.on('notification', (note) => {
      const key = next.current++;
      setItems((list) => [{ key, note }, ...list].slice(0, KEPT));
    });
  }, [bridge]);
  const dismiss = (key: number) => setItems((list) => list.filter((item) => item.key !== key));
  return (
    <section className="toasts" aria-label="Review notifications" aria-live="polite">
      {items.map(({ key, note }) => (
        <div key={key} className="toast card">
          <a
            href={
              note.number === null
                ? routeHash({ screen: 'review' })
                : routeHash({
                    screen: 'change-request',
                    space: note.spaceId,
                    number: note.number,
                    view: 'overview',
                  })
            }
            onClick={() => dismiss(key)}
          >
            {note.title}
          </a>
          {note.body ? <p className="muted">{markdownPlainText(note.body)}</p> : null}
          <button
            type="button"
            className="toast-close"
            aria-label={`Dismiss: ${note.title}`}
            onClick={() => dismiss(key)}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
