import type { CliCommand } from '../cli-run';

/** `quire cr checkout|checkouts …`: a change request as a folder that pushes to it. */
export const crCheckoutCommands: Readonly<Record<string, CliCommand>> = {};
