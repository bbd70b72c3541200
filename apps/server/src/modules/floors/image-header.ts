/**
 * Just enough of PNG and JPEG to trust an upload: the type from its magic bytes (not the declared
 * type) and the pixel size from the header (PNG IHDR, JPEG SOFn). No image library.
 */
export interface ImageHeader {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_SIDE = 65_535 * 4;

/** The largest map image accepted on upload: per side and in total (a decoded 100 MP RGBA image is 400 MB). */
export const MAP_IMAGE_MAX_SIDE = 16_384;
export const MAP_IMAGE_MAX_PIXELS = 100_000_000;

/** Whether a read header's declared size is small enough to decode safely (browser and server). */
export function withinImageLimits({ width, height }: Pick<ImageHeader, 'width' | 'height'>): boolean {
  return width <= MAP_IMAGE_MAX_SIDE && height <= MAP_IMAGE_MAX_SIDE && width * height <= MAP_IMAGE_MAX_PIXELS;
}

export function readImageHeader(bytes: Buffer): ImageHeader | null {
  return readPng(bytes) ?? readJpeg(bytes);
}

function sized(contentType: ImageHeader['contentType'], width: number, height: number): ImageHeader | null {
  return width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE ? { contentType, width, height } : null;
}

/** Signature, then the IHDR chunk first: length (13), "IHDR", width, height (big-endian). */
function readPng(b: Buffer): ImageHeader | null {
  if (b.length < 33 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sized('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
}

/** SOI, then segments until a start-of-frame (SOF0..SOF15 but DHT C4, JPG C8, DAC CC). */
function readJpeg(b: Buffer): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return null;
    while (i < b.length && b[i] === 0xff) i++; // fill bytes
    const marker = b[i];
    i++;
    if (marker === undefined) return null;
    // Markers without a length: TEM, RSTn, a stray SOI.
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    // End of image or start of scan before any frame header: not a readable image.
    if (marker === 0xd9 || marker === 0xda) return null;
    if (i + 2 > b.length) return null;
    const length = b.readUInt16BE(i);
    if (length < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      // length (2), precision (1), height (2), width (2)
      if (length < 7 || i + 7 > b.length) return null;
      return sized('image/jpeg', b.readUInt16BE(i + 5), b.readUInt16BE(i + 3));
    }
    i += length;
  }
  return null;
}
