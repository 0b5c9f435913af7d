import path from 'node:path';
import type { ChangeRequestRef } from '../../../shared/contract/change-requests';
import type { ChangeRequestActionOutcome } from '../../../shared/contract/review';
import type { MetadataDelivery } from '../../../shared/contract/quire-commands';
import {
  CliError,
  EXIT_OK,
  EXIT_PROBLEMS,
  EXIT_USAGE,
  type CliCommand,
  type Run,
  type Values,
} from '../cli-run';
import { onCommandError } from '../output/describe-error';
import { oneLine, plural } from '../output/text';
import { known, refOf } from './change-requests';

const REVIEW_USAGE =
  'usage: quire cr review <space> <number> --approve | --request-changes [--comment <text>]';

/** `quire cr subject|ready|archive|review|reviewers|update|merge|pdf …`: review actions. */
export const crActionCommands: Readonly<Record<string, CliCommand>> = {
  subject: async (run, _values, args) => {
    if (args.length < 3)
      throw new CliError('usage: quire cr subject <space> <number> <text>', EXIT_USAGE);
    const ref = refOf(args.slice(0, 2));
    const subject = args.slice(2).join(' ');
    const delivery = await action(run.app.setChangeRequestSubject({ ...ref, subject }));
    run.out(`Subject of ${name(ref)} set to "${oneLine(subject)}"${deliveryNote(delivery)}`);
    return EXIT_OK;
  },
  ready: async (run, _values, args) => {
    const ref = refOf(args);
    const delivery = await action(run.app.setChangeRequestStatus({ ...ref, status: 'open' }));
    run.out(`${name(ref)} is ready for review${deliveryNote(delivery)}`);
    return EXIT_OK;
  },
  archive: async (run, _values, args) => {
    const ref = refOf(args);
    const delivery = await action(run.app.setChangeRequestStatus({ ...ref, status: 'archived' }));
    run.out(`${name(ref)} is archived${deliveryNote(delivery)}`);
    return EXIT_OK;
  },
  review,
  reviewers,
  update: async (run, _values, args) => {
    const ref = refOf(args);
    return outcome(run, ref, await action(run.app.updateChangeRequest(ref)), 'update');
  },
  merge: async (run, _values, args) => {
    const ref = refOf(args);
    return outcome(run, ref, await action(run.app.mergeChangeRequest(ref)), 'merge');
  },
  pdf: async (run, values, args) => {
    const ref = refOf(args);
    const file = values.out === undefined ? null : path.resolve(run.io.cwd, values.out);
    const saved = await action(
      run.app.exportChangeRequestPdf({ ...ref, pageId: values.page ?? null, file }),
    );
    run.out(`Saved ${name(ref)} as ${saved.file} (${plural(saved.bytes, 'byte')}).`);
    return EXIT_OK;
  },
};

/** Sent at once when the server answers; otherwise it waits in the cache for the next sync. */
function deliveryNote({ delivery }: MetadataDelivery): string {
  return delivery === 'sent'
    ? '.'
    : ' here; the server cannot be reached: queued, the next sync sends it (`quire sync --once`).';
}

async function review(run: Run, values: Values, args: string[]): Promise<number> {
  const ref = refOf(args);
  if (values.approve === values['request-changes']) throw new CliError(REVIEW_USAGE, EXIT_USAGE);
  const verdict = values.approve ? 'approved' : 'changes-requested';
  await action(run.app.reviewChangeRequest({ ...ref, verdict, comment: values.comment ?? null }));
  run.out(
    `${verdict === 'approved' ? 'Approved' : 'Requested changes on'} ${name(ref)}` +
      (values.comment !== undefined ? ', with your comment.' : '.'),
  );
  return EXIT_OK;
}

async function reviewers(run: Run, values: Values, args: string[]): Promise<number> {
  const ref = refOf(args);
  const add = people(values.add);
  const remove = people(values.remove);
  if (add.length > 0 || remove.length > 0) {
    await action(run.app.setReviewers({ ...ref, add, remove }));
    if (add.length > 0) run.out(`Asked ${add.join(', ')} to review ${name(ref)}.`);
    if (remove.length > 0) run.out(`No longer asking ${remove.join(', ')}.`);
  }
  const detail = await known(run.app.changeRequest(ref));
  if (values.json) {
    run.out(JSON.stringify(detail.requestedReviewers, null, 2));
    return EXIT_OK;
  }
  const names = detail.requestedReviewers.map((request) => request.user.displayName);
  run.out(
    names.length === 0
      ? `Nobody is asked to review ${name(ref)}.`
      : `Asked to review ${name(ref)}: ${names.join(', ')}.`,
  );
  return EXIT_OK;
}

function outcome(
  run: Run,
  ref: ChangeRequestRef,
  result: ChangeRequestActionOutcome,
  what: 'update' | 'merge',
): number {
  if (result.result === 'conflicts') {
    run.out(
      what === 'merge'
        ? `${name(ref)} was not merged: ${plural(result.pages.length, 'page')} changed on both sides:`
        : `${name(ref)} was not updated from main: ${plural(result.pages.length, 'page')} changed on both sides:`,
    );
    for (const page of result.pages) {
      run.out(`  ${oneLine(page.title)}${page.path === '' ? '' : ` (${page.path})`}`);
    }
    return EXIT_PROBLEMS;
  }
  if (result.result === 'unchanged') run.out(`${name(ref)} is up to date with main already.`);
  else if (what === 'merge') run.out(`Merged ${name(ref)}: main comes with the next sync.`);
  else run.out(`Updated ${name(ref)} from main.`);
  return EXIT_OK;
}

/** The CLI's words for what the server refused (a 403 here is about the action, not the token). */
async function action<T>(task: Promise<T>): Promise<T> {
  return onCommandError(
    known(task),
    'forbidden',
    (error) => new CliError(`the server refused: ${error.message}`),
  );
}

function people(list: string | undefined): string[] {
  if (list === undefined) return [];
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function name(ref: ChangeRequestRef): string {
  return `${oneLine(ref.space)} #${ref.number}`;
}
