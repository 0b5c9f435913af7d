import { posix } from 'node:path';

/** The folder of a path from the space folder; '' for the top level. */
export function dirOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}
