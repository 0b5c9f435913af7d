import type { TypedApp } from '../http/typed-app';
import type { ServerContext } from '../server-context';
import { organizationRoutes } from './organizations/organization-routes';

/** Every resource's routes, in one place so the API surface is easy to review. */
export function registerResourceRoutes(app: TypedApp, ctx: ServerContext): void {
  organizationRoutes(app, ctx);
}
