/**
 * Width and height of a PNG, GIF or JPEG read from its header bytes (no decoding), for the
 * `dimensions` of uploaded files. Anything else, or a truncated header, gives undefined.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = (width: number, height: number) =>
    width > 0 && height > 0 ? { width, height } : undefined;

  // PNG: signature, then the IHDR chunk (length, "IHDR", width, height; big-endian).
  if (
    bytes.length >= 24 &&
    bytes[0] === 0x89 &&
    bytes[1] === 0x50 &&
    bytes[2] === 0x4e &&
    bytes[3] === 0x47 &&
    ascii(bytes, 12, 4) === 'IHDR'
  ) {
    return size(view.getUint32(16), view.getUint32(20));
  }

  // GIF: "GIF87a" / "GIF89a", then the logical screen width and height (little-endian).
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) {
    return size(view.getUint16(6, true), view.getUint16(8, true));
  }

  // JPEG: walk the marker segments up to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 <= bytes.length) {
      if (bytes[offset] !== 0xff) return undefined;
      const marker = bytes[offset + 1]!;
      if (marker === 0xff) {
        offset += 1; // fill byte
        continue;
      }
      // Markers without a length: TEM and RST0–RST7.
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        offset += 2;
        continue;
      }
      const length = view.getUint16(offset + 2);
      if (length < 2) return undefined;
      const isFrame =
        marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return size(view.getUint16(offset + 7), view.getUint16(offset + 5));
      if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, start of scan
      offset += 2 + length;
    }
  }
  return undefined;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
