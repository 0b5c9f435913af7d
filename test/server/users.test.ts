import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('users', () => {
  it('returns the authenticated user through the published client', async () => {
    const { data } = await t.client(TOKENS.ada).user.getAuthenticatedUser();
    expect(data).toEqual({
      object: 'user',
      id: 'u-ada',
      displayName: 'Ada Lovelace',
      email: 'ada@acme.test',
      urls: { location: `${t.url}/v1/users/u-ada` },
    });
    await expectError(await t.request('GET', '/v1/user', null), 401);
  });

  it('shows a user only to members of a shared organization', async () => {
    const { data } = await t.client(TOKENS.ada).users.getUserById('u-bob');
    expect(data.displayName).toBe('Bob Builder');
    await expectError(await t.request('GET', '/v1/users/u-ada', TOKENS.eve), 404);
    await expectError(await t.request('GET', '/v1/users/nobody', TOKENS.ada), 404);
  });
});
