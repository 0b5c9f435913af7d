import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceClient } from '../remote/workspace-client';
import { pdfFileName, savePdf } from './save-pdf';
import { WorkspaceReviewRemote } from './workspace-review-remote';

/** A hostile (or broken) server's PDF downloads, over loopback through the real client. */
const PDF = Buffer.from('%PDF-1.4\n% a tiny stand-in\n%%EOF\n');
let server: Server;
let base: string;
let dir: string;
let remote: WorkspaceReviewRemote;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(Buffer.concat([PDF, Buffer.alloc(64 * 1024)]));
    } else if (request.url === '/html') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end('<html><body>Sign in</body></html>');
    } else {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(PDF);
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  remote = new WorkspaceReviewRemote(
    new WorkspaceClient({ endpoint: base, token: 'secret', downloads: { maxAttempts: 1 } }),
  );
  dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));
});

afterAll(async () => {
  await new Promise((closed) => server.close(closed));
  rmSync(dir, { recursive: true, force: true });
});

describe('savePdf', () => {
  it('saves a PDF under the name asked, then under fresh names, never overwriting', async () => {
    const target = join(dir, 'a.pdf');
    writeFileSync(join(dir, 'a (2).pdf'), 'mine');
    expect(await savePdf(remote, `${base}/ok`, target)).toEqual({
      file: target,
      bytes: PDF.length,
    });
    const again = await savePdf(remote, `${base}/ok`, target);
    expect(again.file).toBe(join(dir, 'a (3).pdf'));
    expect(readFileSync(join(dir, 'a (2).pdf'), 'utf8')).toBe('mine');
    expect(readFileSync(again.file)).toEqual(PDF);
  });

  it('refuses a PDF larger than allowed and what is not a PDF, leaving nothing behind', async () => {
    const before = readdirSync(dir).sort();
    await expect(savePdf(remote, `${base}/huge`, join(dir, 'huge.pdf'), 4096)).rejects.toThrow(
      'larger than the 4096 bytes allowed',
    );
    await expect(savePdf(remote, `${base}/html`, join(dir, 'html.pdf'))).rejects.toThrow(
      'the server sent something that is not a PDF; nothing was saved',
    );
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses a folder that does not exist', async () => {
    await expect(savePdf(remote, `${base}/ok`, join(dir, 'nope', 'a.pdf'))).rejects.toThrow(
      `no folder ${join(dir, 'nope')} to save the PDF in`,
    );
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('names the file after the space, number and subject, without unsafe characters', () => {
    expect(pdfFileName('Handbook', 4, 'Fix: the "install" guide/notes\n')).toBe(
      'Handbook #4 Fix the install guide notes.pdf',
    );
  });
});
