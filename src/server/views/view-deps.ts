/**
 * What the view routes share: the server context, sessions, queries, and the access step every
 * view starts with (a signed-in user, or a redirect to the sign-in page).
 */
import type { FastifyRequest } from 'fastify';
import { ContentQueries } from '../resources/content/content-queries';
import type { FileUrlSigner } from '../content/file-url-signer';
import {
  contentReaderFor,
  fileUrlSignerFor,
  type ContentReader,
} from '../resources/content/content-reader';
import { ChangeRequestQueries } from '../resources/change-requests/change-request-queries';
import type { ServerContext } from '../server-context';
import { PageHtmlJobs } from './page-html-jobs';
import { ViewQueries } from './view-queries';
import { SESSION_COOKIE, ViewSessions } from './view-sessions';

export interface ViewDeps {
  ctx: ServerContext;
  sessions: ViewSessions;
  views: ViewQueries;
  content: ContentQueries;
  changeRequests: ChangeRequestQueries;
  /** The API's content reader: its sources apply the API's access rules (404 / 403). */
  reader: ContentReader;
  pageHtml: PageHtmlJobs;
  /** Signs files' download URLs (images and file links of the pages). */
  signer: FileUrlSigner;
}

export function viewDeps(ctx: ServerContext): ViewDeps {
  return {
    ctx,
    sessions: new ViewSessions(ctx.db, ctx.clock),
    views: new ViewQueries(ctx.db),
    content: new ContentQueries(ctx.db),
    changeRequests: new ChangeRequestQueries(ctx.db),
    reader: contentReaderFor(ctx),
    pageHtml: new PageHtmlJobs(ctx.cpu),
    signer: fileUrlSignerFor(ctx),
  };
}

/** Thrown by a view that needs a signed-in user when there is none: the sign-in page follows. */
export class SignInRequired extends Error {
  constructor(readonly next: string) {
    super('Sign in to see this page');
    this.name = 'SignInRequired';
  }
}

export interface Viewer {
  userId: string;
  name: string;
}

/** The signed-in user of a view request (SignInRequired when there is none). */
export function requireViewer(deps: ViewDeps, request: FastifyRequest): Viewer {
  const userId = deps.sessions.userOf(request.cookies[SESSION_COOKIE]);
  if (!userId) throw new SignInRequired(request.url);
  return { userId, name: deps.views.userName(userId) };
}
