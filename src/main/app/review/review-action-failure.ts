import { CommandFailedError } from '../../../shared/contract/command-error';
import {
  RemoteAuthError,
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteProtocolError,
  RemoteRedirectError,
  RemoteUnavailableError,
} from '../../remote/errors';
import { PdfSaveError } from '../../review/save-pdf';
import { ReviewerNotResolvedError } from '../../review/resolve-reviewers';

/**
 * A review action's failure in the contract's terms: unreachable → `offline` saying what needed
 * the server and that nothing was queued; a 4xx → `refused` (403 `forbidden`) with the server's
 * own words; an unresolved reviewer or an unusable PDF target → `invalid-argument`; a download
 * that is not a PDF or too large → `unexpected`, saying nothing was saved. Others pass through.
 */
export function reviewActionFailure(error: unknown, action: string, server: string): unknown {
  if (error instanceof RemoteUnavailableError) {
    return new CommandFailedError(
      { kind: 'offline', message: `${action} needs a connection to ${server}; nothing was queued` },
      { cause: error },
    );
  }
  const words = error instanceof Error ? error.message.replace(/^\d{3} /, '') : '';
  if (error instanceof RemoteAuthError && error.status === 403) {
    return new CommandFailedError({ kind: 'forbidden', message: words }, { cause: error });
  }
  // A 404 too: the page asked for a PDF, or the change request, is gone on the server.
  const status =
    error instanceof RemoteHttpError || error instanceof RemoteNotFoundError
      ? (error.status ?? 0)
      : 0;
  if (!(error instanceof RemoteRedirectError) && status >= 400 && status < 500) {
    return new CommandFailedError({ kind: 'refused', status, message: words }, { cause: error });
  }
  if (error instanceof ReviewerNotResolvedError) {
    return new CommandFailedError(
      { kind: 'invalid-argument', field: 'reviewers', message: error.message },
      { cause: error },
    );
  }
  if (error instanceof PdfSaveError && error.reason === 'target') {
    return new CommandFailedError(
      { kind: 'invalid-argument', field: 'file', message: error.message },
      { cause: error },
    );
  }
  if (error instanceof PdfSaveError || error instanceof RemoteProtocolError) {
    const message = `the PDF was refused: ${words}`;
    return new CommandFailedError({ kind: 'unexpected', message }, { cause: error });
  }
  return error;
}
