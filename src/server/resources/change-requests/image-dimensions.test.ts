import { describe, expect, it } from 'vitest';
import { imageDimensions } from './image-dimensions';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc2, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff, 0xff]), sof]);
}

describe('imageDimensions', () => {
  it('reads PNG, GIF and JPEG headers', () => {
    expect(imageDimensions(png)).toEqual({ width: 1, height: 1 });
    expect(imageDimensions(gif(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(jpeg(1920, 1080))).toEqual({ width: 1920, height: 1080 });
  });

  it('answers undefined for other or truncated bytes', () => {
    expect(imageDimensions(Buffer.from('%PDF-1.4'))).toBeUndefined();
    expect(imageDimensions(png.subarray(0, 20))).toBeUndefined();
    expect(imageDimensions(jpeg(10, 10).subarray(0, 30))).toBeUndefined();
    expect(imageDimensions(gif(0, 5))).toBeUndefined();
    expect(imageDimensions(new Uint8Array(0))).toBeUndefined();
  });
});
