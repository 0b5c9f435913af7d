/** The screens, addressed by the URL's hash so a notification or a link can open one. */
export type Route =
  | { screen: 'spaces' }
  | { screen: 'conflicts' }
  | { screen: 'conflict'; id: number }
  | { screen: 'problems' }
  | { screen: 'activity' }
  | { screen: 'settings' }
  | { screen: 'connect' };

const SIMPLE = ['spaces', 'conflicts', 'problems', 'activity', 'settings', 'connect'] as const;

/** `#/conflicts/12` → the conflict 12; anything unknown → the spaces. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [screen, id] = parts;
  if (screen === 'conflicts' && id !== undefined && /^\d{1,9}$/.test(id))
    return { screen: 'conflict', id: Number(id) };
  const simple = SIMPLE.find((name) => name === screen);
  return simple ? { screen: simple } : { screen: 'spaces' };
}

export function routeHash(route: Route): string {
  return route.screen === 'conflict' ? `#/conflicts/${route.id}` : `#/${route.screen}`;
}
