import { describe, expect, it } from 'vitest';
import { CommandFailedError } from '../../../shared/contract/command-error';
import {
  RemoteAuthError,
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteProtocolError,
  RemoteUnavailableError,
} from '../../remote/errors';
import { ReviewerNotResolvedError } from '../../review/resolve-reviewers';
import { PdfSaveError } from '../../review/save-pdf';
import { reviewActionFailure } from './review-action-failure';

const SERVER = 'https://docs.example';

function typed(error: unknown) {
  const failure = reviewActionFailure(error, 'Merging', SERVER);
  expect(failure).toBeInstanceOf(CommandFailedError);
  return (failure as CommandFailedError).error;
}

describe('reviewActionFailure', () => {
  it('says what needed the server, and that nothing was queued', () => {
    expect(typed(new RemoteUnavailableError('connect ECONNREFUSED', { attempts: 5 }))).toEqual({
      kind: 'offline',
      message: 'Merging needs a connection to https://docs.example; nothing was queued',
    });
  });

  it("gives the server's refusal in its words: 4xx refused, 403 forbidden", () => {
    const archived = 'Change request 3 is archived: it cannot be merged';
    expect(typed(new RemoteHttpError(`409 ${archived}`, { status: 409 }))).toEqual({
      kind: 'refused',
      status: 409,
      message: archived,
    });
    expect(typed(new RemoteNotFoundError('404 Page p-x', { status: 404 }))).toMatchObject({
      kind: 'refused',
      status: 404,
    });
    expect(typed(new RemoteAuthError('403 Not yours', { status: 403 }))).toEqual({
      kind: 'forbidden',
      message: 'Not yours',
    });
  });

  it('names the argument for a reviewer or a PDF target, and refuses a bad download', () => {
    expect(typed(new ReviewerNotResolvedError('nobody'))).toMatchObject({
      kind: 'invalid-argument',
      field: 'reviewers',
    });
    expect(typed(new PdfSaveError('target', 'relative'))).toMatchObject({ field: 'file' });
    expect(typed(new PdfSaveError('content', 'not a PDF')).message).toBe(
      'the PDF was refused: not a PDF',
    );
    expect(typed(new RemoteProtocolError('larger than the 10 bytes allowed')).kind).toBe(
      'unexpected',
    );
  });

  it('passes anything else through (a 401, a bug)', () => {
    const rejected = new RemoteAuthError('401', { status: 401 });
    expect(reviewActionFailure(rejected, 'Merging', SERVER)).toBe(rejected);
    const bug = new TypeError('x');
    expect(reviewActionFailure(bug, 'Merging', SERVER)).toBe(bug);
  });
});
