import { expect } from 'vitest';

/** Signs in to the HTML views with an API token; returns the `Cookie` header value to send. */
export async function viewSignIn(base: string, token: string, next = '/app'): Promise<string> {
  const response = await fetch(`${base}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ token, next }).toString(),
  });
  expect(response.status).toBe(303);
  const cookie = response.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/^quire_session=/);
  return cookie.split(';')[0]!;
}

/** GETs a view as a browser would (asking for HTML), with a session cookie or none, not following redirects. */
export function viewGet(url: string, cookie?: string): Promise<Response> {
  return fetch(url, {
    redirect: 'manual',
    headers: { accept: 'text/html,*/*;q=0.8', ...(cookie ? { cookie } : {}) },
  });
}
