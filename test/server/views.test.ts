import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '@gitbook/api';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';
import { viewGet, viewSignIn } from '../support/view-browser-session';

let t: TestServer;
let ada: string;
let cr: ChangeRequest;

beforeAll(async () => {
  t = await startTestServer();
  ada = await viewSignIn(t.url, TOKENS.ada);
  const client = t.client(TOKENS.ada);
  cr = (await client.spaces.createChangeRequest('s-handbook', { subject: 'Rewrite the welcome' }))
    .data;
  await client.spaces.updateChangeRequestContent('s-handbook', cr.id, {
    changes: [
      {
        operation: 'update_page',
        page: 'p-welcome',
        document: { markdown: '# Welcome\n\nHello, world.\n\nA new line.\n' },
      },
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('space views', () => {
  it('shows a space: its page tree and its first page, rendered', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook`, ada);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Welcome</h1>');
    expect(html).toContain('<p>Hello.</p>');
    expect(html).toContain('href="/app/s/s-handbook/guides/setup"');
  });

  it('shows a page by its path', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook/guides/setup`, ada);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<p>Install it.</p>');
  });

  it('shows a change request with its line diff', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook/~/changes/${cr.number}`, ada);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Rewrite the welcome');
    expect(html).toContain('<del>- Hello.</del>');
    expect(html).toContain('<ins>+ Hello, world.</ins>');
  });
});
