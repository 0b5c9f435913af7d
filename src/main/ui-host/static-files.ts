import { readFile, realpath } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { RENDERER_CONTENT_TYPES } from '../../shared/renderer-content-types';

/**
 * What the UI's page may do in the browser: its own scripts and styles only, fetches back to this
 * host only, never framed (clickjacking), no forms posted anywhere, no plugins.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer: nothing cached (the page is a live view), sniffed, framed or referred. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The built renderer (`out/renderer`) as files: `/` is index.html; a path that leaves the folder,
 * through `..` or a symbolic link, or names a type the UI does not ship, is not found.
 */
export class StaticFiles {
  private constructor(private readonly root: string) {}

  static async open(dir: string): Promise<StaticFiles> {
    return new StaticFiles(await realpath(dir));
  }

  async serve(pathname: string, response: ServerResponse): Promise<void> {
    const file = await this.resolve(pathname === '/' ? '/index.html' : pathname);
    const type =
      file === undefined ? undefined : RENDERER_CONTENT_TYPES[path.extname(file).toLowerCase()];
    const body = file === undefined || type === undefined ? undefined : await readOrNull(file);
    if (body === undefined) {
      response.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      response.end('not found');
      return;
    }
    response.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': type!,
      'content-length': body.length,
      ...(type!.startsWith('text/html')
        ? { 'content-security-policy': CONTENT_SECURITY_POLICY }
        : {}),
    });
    response.end(body);
  }

  private async resolve(pathname: string): Promise<string | undefined> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0')) return undefined;
    const candidate = path.resolve(this.root, `.${path.posix.normalize(decoded)}`);
    const real = await realpath(candidate).catch(() => undefined);
    if (real === undefined || !real.startsWith(`${this.root}${path.sep}`)) return undefined;
    return real;
  }
}

async function readOrNull(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch(() => undefined);
}
