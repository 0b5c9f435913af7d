import type { CliCommand } from '../cli-run';

/** `quire cr subject|ready|archive|review|reviewers|update|merge|pdf …`: review actions. */
export const crActionCommands: Readonly<Record<string, CliCommand>> = {};
