import { describe, expect, it } from 'vitest';
import { contentDisposition } from './file-download-routes';

describe('contentDisposition', () => {
  it('keeps a plain name as is', () => {
    expect(contentDisposition('inline', 'diagram.png')).toBe(
      `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
    );
  });

  it('never lets a name break out of the header value or name a path', () => {
    const value = contentDisposition('attachment', '../a"b\\c\r\nSet-Cookie: x=1;é.pdf');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value).toBe(
      `attachment; filename=".._a_b_c__Set-Cookie: x=1;_.pdf"; filename*=UTF-8''..%2Fa%22b%5Cc%0D%0ASet-Cookie%3A%20x%3D1%3B%C3%A9.pdf`,
    );
  });

  it('falls back to "file" when nothing printable is left', () => {
    expect(contentDisposition('attachment', ' ')).toBe(
      `attachment; filename="file"; filename*=UTF-8''%20`,
    );
  });
});
