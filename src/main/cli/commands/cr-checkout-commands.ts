import { join, sep } from 'node:path';
import type { ChangeRequestCheckout } from '../../../shared/contract/review';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand, type Run } from '../cli-run';
import { oneLine, plural } from '../output/text';
import { known, refOf } from './change-requests';

/** `quire cr checkout|checkouts …`: a change request as a folder that pushes to it. */
export const crCheckoutCommands: Readonly<Record<string, CliCommand>> = {
  checkout: async (run, _values, args) => {
    if (args.length !== 2)
      throw new CliError('usage: quire cr checkout <space> <number>', EXIT_USAGE);
    const checkout = await known(run.app.checkoutChangeRequest(refOf(args)));
    run.out(`Checked out #${checkout.number} ${oneLine(checkout.subject)} into`);
    run.out(`  ${checkout.folder}`);
    run.out(
      `Edit the files there: \`quire sync\` (or the app) sends your edits to #${checkout.number} ` +
        "and brings others' edits on it. Once it is merged or archived the folder goes away, " +
        'unless edits there were not sent yet (`quire cr checkouts` shows them).',
    );
    return EXIT_OK;
  },
  checkouts: async (run, values, args) => {
    if (args.length !== 0) throw new CliError('usage: quire cr checkouts [--json]', EXIT_USAGE);
    const checkouts = await run.app.checkouts({});
    if (values.json) {
      run.out(JSON.stringify(checkouts, null, 2));
      return EXIT_OK;
    }
    const unsynced = checkouts.length === 0 ? () => 0 : await unsyncedCounter(run);
    for (const checkout of checkouts) {
      for (const line of checkoutLines(checkout, unsynced(checkout.folder))) run.out(line);
    }
    run.out(
      checkouts.length === 0
        ? 'No change request checked out (`quire cr checkout <space> <number>` checks one out).'
        : `${plural(checkouts.length, 'checkout')}.`,
    );
    return EXIT_OK;
  },
};

/**
 * Edits saved in a folder since the last sync (what `quire status` lists as not yet synced):
 * pending too, though no push has queued them yet.
 */
async function unsyncedCounter(run: Run): Promise<(folder: string) => number> {
  const connection = await run.app.connection({});
  if (connection.state === 'new') return () => 0;
  const edits = await run.app.unsyncedEdits({});
  const paths = edits.map((edit) => join(connection.folder, ...edit.path.split('/')));
  return (folder) => paths.filter((path) => path.startsWith(folder + sep)).length;
}

function checkoutLines(checkout: ChangeRequestCheckout, unsynced: number): string[] {
  const waiting = checkout.pending + unsynced;
  const pending = waiting === 0 ? 'nothing pending' : `${plural(waiting, 'edit')} pending`;
  const lines = [
    `${oneLine(checkout.space)} #${checkout.number} ${oneLine(checkout.subject)} (${checkout.status}, ${pending})`,
    `  ${checkout.folder}`,
  ];
  if (checkout.closedWithPendingEdits) {
    lines.push(
      `  ${checkout.status} before these edits were sent: copy what you need into the space ` +
        'folder, then delete this folder (Quire then forgets the checkout)',
    );
  }
  return lines;
}
