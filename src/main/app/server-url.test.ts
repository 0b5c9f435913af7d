import { describe, expect, it } from 'vitest';
import { parseServerUrl, ServerUrlError } from './server-url';

describe('parseServerUrl', () => {
  it.each([
    ['https://docs.example.test', 'https://docs.example.test', false],
    ['https://docs.example.test/', 'https://docs.example.test', false],
    ['  https://Docs.Example.test:8443/  ', 'https://docs.example.test:8443', false],
    ['https://docs.example.test/v1', 'https://docs.example.test', false],
    ['https://docs.example.test/v1/', 'https://docs.example.test', false],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787', false],
    ['http://localhost:8787/', 'http://localhost:8787', false],
    ['http://[::1]:8787', 'http://[::1]:8787', false],
    ['http://docs.example.test', 'http://docs.example.test', true],
  ])('accepts %s as %s', (input, origin, cleartext) => {
    expect(parseServerUrl(input)).toEqual({ origin, cleartext });
  });

  it.each([
    ['', /something like/],
    ['docs.example.test', /something like/],
    ['localhost:8787', /http:\/\/ or https:\/\//],
    ['ftp://docs.example.test', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
    ['https://user:pw@docs.example.test', /user name or password/],
    ['https://docs.example.test/?a=1', /query or a fragment/],
    ['https://docs.example.test/#x', /query or a fragment/],
    ['https://docs.example.test/api', /without a path/],
    ['https://docs.example.test/v1/spaces', /without a path/],
  ])('refuses %j', (input, reason) => {
    expect(() => parseServerUrl(input)).toThrow(ServerUrlError);
    expect(() => parseServerUrl(input)).toThrow(reason);
  });
});
