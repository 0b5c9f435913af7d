import type { CommandError } from '../../../shared/contract/command-error';

/** The form field an error belongs to, or null for the form as a whole. */
export type ConnectField = 'server' | 'token' | 'folder';

export interface ConnectErrorText {
  readonly field: ConnectField | null;
  readonly message: string;
}

function fieldOf(name: string): ConnectField | null {
  if (name === 'server' || name === 'token' || name === 'folder') return name;
  return null;
}

/**
 * A failed login in words, next to the field to fix: the server unreachable, the token rejected,
 * the folder not writable. The engine's sentence is kept after ours, as text.
 */
export function connectErrorText(error: CommandError): ConnectErrorText {
  switch (error.kind) {
    case 'offline':
      return {
        field: 'server',
        message: `The server cannot be reached. Check the address and your connection. (${error.message})`,
      };
    case 'not-a-quire-server':
      return {
        field: 'server',
        message: `Something answered at this address, but not a Quire server. Check the address. (${error.message})`,
      };
    case 'token-rejected':
      return {
        field: 'token',
        message: 'The server rejected this token. Check that it is complete and not revoked.',
      };
    case 'forbidden':
      return { field: 'token', message: `This token may not be used here. (${error.message})` };
    case 'folder-unusable':
    case 'folder-missing':
      return {
        field: 'folder',
        message: `This folder cannot be used: it is not writable or not a folder. (${error.message})`,
      };
    case 'other-connection':
      return {
        field: null,
        message: `This computer already syncs ${error.server} into ${error.folder}. Sign out there first.`,
      };
    case 'busy':
      return {
        field: null,
        message: `Another process is syncing right now${error.runner ? ` (${error.runner.command})` : ''}. Try again when it stops.`,
      };
    case 'invalid-argument':
      return { field: fieldOf(error.field), message: error.message };
    default:
      return { field: null, message: error.message };
  }
}
