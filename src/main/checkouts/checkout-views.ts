import type { ChangeRequestCheckout } from '../../shared/contract/review';
import type { ChangeRequestState } from '../../shared/contract/change-requests';
import { spaceRootOf, type EngineContext } from '../sync/engine-context';
import type { CheckoutRow } from './checkout-store';

/** A checkout as the contract shows it (`quire cr checkouts`). */
export function checkoutView(ctx: EngineContext, checkout: CheckoutRow): ChangeRequestCheckout {
  const row = ctx.spaces.getSpace(checkout.key);
  const space = ctx.spaces.getSpace(checkout.spaceId);
  return {
    spaceId: checkout.spaceId,
    space: space?.title ?? checkout.spaceId,
    number: checkout.number,
    subject: checkout.subject,
    status: checkout.status as ChangeRequestState,
    folder: row === undefined ? '' : spaceRootOf(ctx, row),
    pending: ctx.outbox.count(checkout.key),
    closedWithPendingEdits: checkout.closedWithPending,
  };
}

/** Every checkout, by space and number. */
export function checkoutViews(ctx: EngineContext): ChangeRequestCheckout[] {
  return ctx.checkouts.list().map((checkout) => checkoutView(ctx, checkout));
}

/** The checkouts' folders that sync (pulled at least once), absolute. */
export function checkoutFolders(ctx: EngineContext): { spaceId: string; root: string }[] {
  return ctx.checkouts.list().flatMap((checkout) => {
    const row = ctx.spaces.getSpace(checkout.key);
    if (row === undefined || row.syncedRevision === null) return [];
    return [{ spaceId: row.id, root: spaceRootOf(ctx, row) }];
  });
}
