import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';

export function changeRequestRoutes(_app: TypedApp, _ctx: ServerContext): void {
  // Routes are added here.
}
