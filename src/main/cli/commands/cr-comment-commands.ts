import type { CliCommand } from '../cli-run';

/** `quire cr comments|comment|reply|edit-comment|delete-comment|react|resolve|reopen …`: comment threads, queued in the outbox. */
export const crCommentCommands: Readonly<Record<string, CliCommand>> = {};
