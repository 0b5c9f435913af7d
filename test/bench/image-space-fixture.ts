import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { benchImage, largeSpaceFixture } from './sync-fixture';

/** Issue 15 §2's generated space: 800 pages and 600 images of 20–200 KB each. */
export const IMAGE_SPACE_PAGES = 800;
export const IMAGE_SPACE_IMAGES = 600;
const MIN_BYTES = 20 * 1024;
const MAX_BYTES = 200 * 1024;

/** xorshift32, seeded: every run draws the same bytes. */
function fill(bytes: Buffer, seed: number): void {
  let state = seed >>> 0 || 1;
  for (let i = 0; i < bytes.length; i += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes.writeUInt32LE(state >>> 0, i);
  }
}

/**
 * Image `index`: a small valid PNG (benchImage) followed by seeded noise up to its size (readers
 * stop at IEND; the noise keeps it from compressing), sizes spread evenly over 20–200 KB.
 */
export function sizedImage(index: number): { name: string; bytes: Buffer } {
  const image = benchImage(index);
  const target = MIN_BYTES + Math.floor((((index * 7919) % 1000) / 1000) * (MAX_BYTES - MIN_BYTES));
  const noise = Buffer.alloc(Math.ceil(Math.max(0, target - image.png.length) / 4) * 4);
  fill(noise, index + 1);
  const bytes = Buffer.concat([image.png, noise]).subarray(0, Math.max(target, image.png.length));
  return { name: `figure-${String(index + 1).padStart(3, '0')}.png`, bytes };
}

/** One space (the large space's layout, 800 pages) holding the 600 images as its files. */
export function imageSpaceFixture(): Fixture {
  const fixture = largeSpaceFixture(IMAGE_SPACE_PAGES, 0);
  const space = fixture.organizations[0]!.spaces![0]!;
  space.files = Array.from({ length: IMAGE_SPACE_IMAGES }, (_, i) => {
    const image = sizedImage(i);
    return {
      id: `f-image-${i + 1}`,
      name: image.name,
      contentType: 'image/png',
      base64: image.bytes.toString('base64'),
      dimensions: { width: 320, height: 200 },
    };
  });
  return fixture;
}
