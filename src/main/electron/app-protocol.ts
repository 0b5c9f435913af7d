import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Protocol } from 'electron';
import { RENDERER_CONTENT_TYPES } from '../../shared/renderer-content-types';

/**
 * The renderer is served from `app://quire/…`, not `file://`: a custom standard scheme gives the
 * page its own origin (file:// pages share one, and may read any local file they can name), lets
 * the main process set the CSP header, and lets every IPC handler tell the app's frame apart.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'quire';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * What the renderer may load: its own bundle only. No inline script, no eval, no remote origin;
 * images may be data: URLs (icons); nothing may frame it, post forms or change its base URL.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Must run before the app is ready: the scheme behaves like https (standard, secure, fetch). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    },
  ]);
}

/** Serves the built renderer (`out/renderer`) on `app://quire/`. */
export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url));
}

/** The answer to one `app://` request: a file of `rendererDir`, or 404 for anything else. */
export async function rendererResponse(rendererDir: string, url: string): Promise<Response> {
  const file = rendererFile(rendererDir, url);
  if (file === undefined) return notFound();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound();
  }
  return new Response(new Uint8Array(body), {
    headers: {
      'content-type':
        RENDERER_CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}

/** The file a URL names inside `rendererDir`; undefined for another host or a path escaping it. */
export function rendererFile(rendererDir: string, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  return file.startsWith(root + path.sep) ? file : undefined;
}

/** Whether a URL is the app's own page (the custom scheme, or electron-vite's dev server). */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
  if (devServerUrl === undefined) return false;
  // A non-special scheme's URL.origin is "null" in Node, so origins are compared only for http(s).
  return parsed.origin === new URL(devServerUrl).origin;
}

function notFound(): Response {
  return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
}
