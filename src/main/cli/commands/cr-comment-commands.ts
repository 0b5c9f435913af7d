import type { CommentsRef } from '../../../shared/contract/review';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand, type Run, type Values } from '../cli-run';
import { commentThreadText } from '../output/comment-text';
import { onCommandError } from '../output/describe-error';
import { oneLine, plural } from '../output/text';
import { known, refOf } from './change-requests';

const USAGE = `usage: quire cr comments <space> <number|-> [--page <id|path>] [--json]
       quire cr comment <space> <number|-> [--page <id|path>] --body <text|->
       quire cr reply|edit-comment <space> <number|-> <commentId> [<replyId>] --body <text|->
       quire cr delete-comment <space> <number|-> <commentId> [<replyId>]
       quire cr react <space> <number|-> <commentId> [<replyId>] <emoji>
       quire cr unreact <space> <number|-> <commentId> [<replyId>] <emoji>
       quire cr resolve|reopen <space> <number|-> <commentId>`;

/** `<space> <number>`, or `<space> -` for the space's own comments. */
function commentsRefOf(args: readonly string[]): CommentsRef {
  if (args.length !== 2) throw new CliError(USAGE, EXIT_USAGE);
  if (args[1] === '-') return { space: args[0]!, number: null };
  return refOf(args);
}

/** The body: `--body <text>`, or `--body -` to read it from stdin. */
async function bodyOf(run: Run, values: Values): Promise<string> {
  if (values.body === undefined) throw new CliError(`--body is required\n${USAGE}`, EXIT_USAGE);
  const body = values.body === '-' ? await run.io.readStdin() : values.body;
  if (body.trim() === '') throw new CliError('the comment is empty', EXIT_USAGE);
  return body;
}

/** An unknown comment id, in the CLI's words. */
function knownComment<T>(task: Promise<T>): Promise<T> {
  return known(
    onCommandError(task, 'unknown-comment', (error) => new CliError(`${error.message}`)),
  );
}

/** `<space> <number|-> <commentId> [<replyId>]` and what follows (`extra` trailing arguments). */
function itemOf(args: readonly string[], extra: number) {
  const head = args.slice(0, args.length - extra);
  if (head.length !== 3 && head.length !== 4) throw new CliError(USAGE, EXIT_USAGE);
  return {
    ...commentsRefOf(head.slice(0, 2)),
    commentId: head[2]!,
    replyId: head[3] ?? null,
    rest: args.slice(args.length - extra),
  };
}

const QUEUED = 'Queued: sent by the next sync (`quire sync --once`, or a running `sync --watch`).';

const comments: CliCommand = async (run, values, args) => {
  const ref = commentsRefOf(args);
  const threads = await knownComment(run.app.comments({ ...ref, pageId: values.page ?? null }));
  if (values.json) {
    run.out(JSON.stringify(threads, null, 2));
    return EXIT_OK;
  }
  for (const thread of threads) run.out(commentThreadText(thread).join('\n'));
  const pending = threads.filter(
    (thread) => thread.pending !== null || thread.replies.some((reply) => reply.pending !== null),
  ).length;
  run.out(
    threads.length === 0
      ? 'No comments.'
      : `${plural(threads.length, 'thread')}${pending > 0 ? `, ${pending} with changes not sent yet` : ''}.`,
  );
  return EXIT_OK;
};

const comment: CliCommand = async (run, values, args) => {
  const ref = commentsRefOf(args);
  const body = await bodyOf(run, values);
  const thread = await knownComment(
    run.app.postComment({ ...ref, pageId: values.page ?? null, body }),
  );
  run.out(`Comment ${thread.id} written. ${QUEUED}`);
  return EXIT_OK;
};

const reply: CliCommand = async (run, values, args) => {
  if (args.length !== 3) throw new CliError(USAGE, EXIT_USAGE);
  const ref = commentsRefOf(args.slice(0, 2));
  const body = await bodyOf(run, values);
  const view = await knownComment(run.app.replyToComment({ ...ref, commentId: args[2]!, body }));
  run.out(`Reply ${view.id} written. ${QUEUED}`);
  return EXIT_OK;
};

const editComment: CliCommand = async (run, values, args) => {
  const { rest: _rest, ...item } = itemOf(args, 0);
  const body = await bodyOf(run, values);
  await knownComment(run.app.editComment({ ...item, body }));
  run.out(`Edit of ${item.replyId ?? item.commentId} written. ${QUEUED}`);
  return EXIT_OK;
};

const deleteComment: CliCommand = async (run, _values, args) => {
  const { rest: _rest, ...item } = itemOf(args, 0);
  await knownComment(run.app.deleteComment(item));
  run.out(`Deletion of ${item.replyId ?? item.commentId} written. ${QUEUED}`);
  return EXIT_OK;
};

const react: CliCommand = (run, values, args) => reaction(run, values, args, true);
const unreact: CliCommand = (run, values, args) => reaction(run, values, args, false);

async function reaction(run: Run, _values: Values, args: string[], add: boolean): Promise<number> {
  const { rest, ...item } = itemOf(args, 1);
  const emoji = rest[0]!;
  await knownComment(run.app.reactToComment({ ...item, emoji, add }));
  run.out(`${add ? 'Reaction' : 'Removal of'} ${oneLine(emoji)} written. ${QUEUED}`);
  return EXIT_OK;
}

function resolver(resolved: boolean): CliCommand {
  return async (run, _values, args) => {
    if (args.length !== 3) throw new CliError(USAGE, EXIT_USAGE);
    const ref = commentsRefOf(args.slice(0, 2));
    await knownComment(run.app.setCommentResolved({ ...ref, commentId: args[2]!, resolved }));
    run.out(`${resolved ? 'Resolved' : 'Reopened'} ${args[2]!}. ${QUEUED}`);
    return EXIT_OK;
  };
}

/** `quire cr comments|comment|reply|edit-comment|delete-comment|react|resolve|reopen …`: comment threads, queued in the outbox. */
export const crCommentCommands: Readonly<Record<string, CliCommand>> = {
  comments,
  comment,
  reply,
  'edit-comment': editComment,
  'delete-comment': deleteComment,
  react,
  unreact,
  resolve: resolver(true),
  reopen: resolver(false),
};
