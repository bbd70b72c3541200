/**
 * BT.601 "limited range" (studio swing, Y 16–235, Cb/Cr 16–240) colour conversion: what WebRTC
 * encoders and browsers assume for I420 video without colour-space metadata.
 */

/** Luma of an sRGB colour (0–255 components), rounded. */
export function rgbToY(r: number, g: number, b: number): number {
  return Math.round(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
}

/** Cb (U) of an sRGB colour, rounded. */
export function rgbToU(r: number, g: number, b: number): number {
  return Math.round(128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255);
}

/** Cr (V) of an sRGB colour, rounded. */
export function rgbToV(r: number, g: number, b: number): number {
  return Math.round(128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255);
}

/** Bytes of an I420 frame: full-size Y, then quarter-size U and V. */
export function i420Size(width: number, height: number): number {
  return width * height + 2 * (width >> 1) * (height >> 1);
}

/**
 * Converts an I420 frame (even width and height) to RGBA (alpha 255), as a browser does when it
 * paints the decoded video into a canvas. Writes into `out` when given (width × height × 4 bytes).
 */
export function i420ToRgba(
  i420: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  out: Uint8ClampedArray = new Uint8ClampedArray(width * height * 4),
): Uint8ClampedArray {
  const cw = width >> 1;
  const uOff = width * height;
  const vOff = uOff + cw * (height >> 1);
  for (let r = 0; r < height; r++) {
    const crow = (r >> 1) * cw;
    let o = r * width * 4;
    let yi = r * width;
    for (let c = 0; c < width; c++) {
      const y = 1.164 * (i420[yi++]! - 16);
      const u = i420[uOff + crow + (c >> 1)]! - 128;
      const v = i420[vOff + crow + (c >> 1)]! - 128;
      out[o] = y + 1.596 * v;
      out[o + 1] = y - 0.392 * u - 0.813 * v;
      out[o + 2] = y + 2.017 * u;
      out[o + 3] = 255;
      o += 4;
    }
  }
  return out;
}
