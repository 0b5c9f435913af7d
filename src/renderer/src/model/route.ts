/** The screens, addressed by the URL's hash so a notification or a link can open one. */
export type Route =
  | { screen: 'spaces' }
  | { screen: 'conflicts' }
  | { screen: 'conflict'; id: number }
  | { screen: 'problems' }
  | { screen: 'activity' }
  | { screen: 'settings' }
  | { screen: 'connect' }
  | { screen: 'review' }
  | { screen: 'change-request'; space: string; number: number; view: ChangeRequestView };

/** The two tabs of a change request: what it is and who reviews it, and its diff. */
export type ChangeRequestView = 'overview' | 'changes';

const SIMPLE = [
  'spaces',
  'conflicts',
  'problems',
  'activity',
  'settings',
  'connect',
  'review',
] as const;

/** `#/conflicts/12` → the conflict 12; `#/review/<space>/4/changes`; anything unknown → the spaces. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [screen, id] = parts;
  if (screen === 'conflicts' && id !== undefined && /^\d{1,9}$/.test(id))
    return { screen: 'conflict', id: Number(id) };
  if (screen === 'review' && id !== undefined && id !== '') return changeRequestRoute(parts);
  const simple = SIMPLE.find((name) => name === screen);
  return simple ? { screen: simple } : { screen: 'spaces' };
}

function changeRequestRoute([, space = '', number = '', view]: string[]): Route {
  if (!/^\d{1,9}$/.test(number)) return { screen: 'review' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(space);
  } catch {
    return { screen: 'review' };
  }
  return {
    screen: 'change-request',
    space: decoded,
    number: Number(number),
    view: view === 'changes' ? 'changes' : 'overview',
  };
}

export function routeHash(route: Route): string {
  if (route.screen === 'conflict') return `#/conflicts/${route.id}`;
  if (route.screen === 'change-request') {
    const base = `#/review/${encodeURIComponent(route.space)}/${route.number}`;
    return route.view === 'changes' ? `${base}/changes` : base;
  }
  return `#/${route.screen}`;
}
