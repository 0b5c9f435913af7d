import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('GET / (the server root, in a browser)', () => {
  it('says what this server is without a token, and links to the API and the desktop client', async () => {
    const response = await fetch(`${t.url}/`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('<h1>Quire server</h1>');
    expect(html).toContain(`${t.url}/v1/user`);
    expect(html).toContain(`npx quire login --server ${t.url}`);
    expect(html).toContain(`href="${t.url}/.well-known/jwks.json"`);
    expect(html).toContain(`href="${t.url}/app/sign-in"`);
    expect(html).toContain(`href="${t.url}/app"`);
    expect(html).not.toMatch(/<script/i);
    // Nothing of any organization is on it.
    expect(html).not.toMatch(/Acme|o-acme|s-handbook/);
  });

  it('leaves the API behind its token', async () => {
    const response = await fetch(`${t.url}/v1/user`);
    expect(response.status).toBe(401);
  });
});
