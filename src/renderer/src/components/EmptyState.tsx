import type { ReactNode } from 'react';

/** What a screen shows when it has nothing to list: why, and what to do. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="state-panel" aria-label={title}>
      <h2>{title}</h2>
      {children ? <p className="muted">{children}</p> : null}
      {action}
    </section>
  );
}
