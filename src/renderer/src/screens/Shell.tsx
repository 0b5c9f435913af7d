import type { MouseEvent, ReactNode } from 'react';
import type { SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { useWaitingReviews } from '../hooks/use-waiting-reviews';
import type { Route } from '../model/route';
import { routeHash } from '../model/route';
import { Header } from './Header';
import { ReviewToasts } from './ReviewToasts';

type NavScreen = 'spaces' | 'review' | 'conflicts' | 'problems' | 'activity' | 'settings';

const NAV: { screen: NavScreen; label: string }[] = [
  { screen: 'spaces', label: 'Spaces' },
  { screen: 'review', label: 'Review' },
  { screen: 'conflicts', label: 'Conflicts' },
  { screen: 'problems', label: 'Problems' },
  { screen: 'activity', label: 'Activity' },
  { screen: 'settings', label: 'Settings' },
];

function count(screen: NavScreen, status: SyncStatusSnapshot | null, waiting: number): number {
  if (screen === 'review') return waiting;
  if (!status) return 0;
  if (screen === 'conflicts') return status.conflicts;
  if (screen === 'problems') return status.problems.length;
  return 0;
}

/** Header, navigation and the current screen. */
export function Shell({
  route,
  status,
  onStatusChanged,
  children,
}: {
  route: Route;
  status: SyncStatusSnapshot | null;
  onStatusChanged: () => void;
  children: ReactNode;
}) {
  const current = currentNav(route);
  const waiting = useWaitingReviews();
  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <Header status={status} onChanged={onStatusChanged} />
      <nav className="shell-nav" aria-label="Screens">
        <ul>
          {NAV.map((item) => {
            const n = count(item.screen, status, waiting);
            return (
              <li key={item.screen}>
                <a
                  href={routeHash({ screen: item.screen })}
                  aria-current={current === item.screen ? 'page' : undefined}
                >
                  <span>{item.label}</span>
                  {n > 0 ? (
                    <span
                      className="pill pill-warn"
                      aria-label={item.screen === 'review' ? `${n} waiting for you` : `${n} open`}
                    >
                      {String(n)}
                    </span>
                  ) : null}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
      <ReviewToasts />
    </div>
  );
}

function currentNav(route: Route): Route['screen'] {
  if (route.screen === 'conflict') return 'conflicts';
  if (route.screen === 'change-request') return 'review';
  return route.screen;
}

/** The skip link moves the focus without touching the hash (the hash is the route). */
function skipToMain(event: MouseEvent) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}
