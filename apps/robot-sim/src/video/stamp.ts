/**
 * A machine-readable render timestamp drawn into every video frame, so that a browser can measure
 * glass-to-glass latency from the decoded video (canvas getImageData of the video at its native
 * size, then `decodeStamp`).
 *
 * Layout (all in units of one square block of `b` pixels, see `stampLayout`):
 *
 *     quiet zone: white (luma 235), STAMP_QUIET_BLOCKS (½ block) around the bar row
 *     bar row:    starts at (b, b), STAMP_CELLS blocks wide, 1 block high:
 *                 [start guard B W B] [42 data bits] [16 CRC bits] [end guard B W B]
 *
 * A cell is black (luma 16) for 1, white (luma 235) for 0; chroma is neutral (128). Data bits are
 * the epoch milliseconds (integer, 0 ≤ ms < 2^42, i.e. until the year 2109) most significant bit
 * first, followed by CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR)
 * computed bit by bit over those 42 bits.
 *
 * Block size: b = max(8, round(height / 45)); when STAMP_TOTAL_BLOCKS × b does not fit the width,
 * b = floor(width / STAMP_TOTAL_BLOCKS); below 2 nothing is drawn. At 1280×720 b = 16, so every
 * block is exactly one (aligned) 16×16 VP8/H.264 macroblock; 1920×1080 gives 24, 640×360 gives 8.
 */

/** Epoch-ms bits in the stamp. */
export const STAMP_DATA_BITS = 42;
/** CRC-16 bits after the data. */
export const STAMP_CRC_BITS = 16;
/** Guard cells at each end (black, white, black). */
export const STAMP_GUARD_CELLS = 3;
/** Cells of the bar row: guard + data + CRC + guard = 64. */
export const STAMP_CELLS = STAMP_GUARD_CELLS + STAMP_DATA_BITS + STAMP_CRC_BITS + STAMP_GUARD_CELLS;
/** Width the stamp needs, in blocks: a one-block margin on the left and on the right of the cells. */
export const STAMP_TOTAL_BLOCKS = STAMP_CELLS + 2;
/** White quiet zone around the bar row, in blocks. */
export const STAMP_QUIET_BLOCKS = 0.5;
/** Luma of a black (1) and of a white (0) cell: video-range black and white. */
export const STAMP_BLACK = 16;
export const STAMP_WHITE = 235;

export interface StampLayout {
  /** Block size in pixels (0: the frame is too small, nothing is drawn). */
  block: number;
  /** Top-left corner of the first cell. */
  x: number;
  y: number;
  /** The quiet-zone box (what the stamp covers), in pixels. */
  box: { x: number; y: number; width: number; height: number };
}

/** Where the stamp goes in a frame of width × height. */
export function stampLayout(width: number, height: number): StampLayout {
  let block = Math.max(8, Math.round(height / 45));
  if (block * STAMP_TOTAL_BLOCKS > width) block = Math.floor(width / STAMP_TOTAL_BLOCKS);
  if (block < 2 || block * 3 > height) block = 0;
  const q = Math.round(block * STAMP_QUIET_BLOCKS);
  return {
    block,
    x: block,
    y: block,
    box: { x: block - q, y: block - q, width: STAMP_CELLS * block + 2 * q, height: block + 2 * q },
  };
}

/** The 64 cell values (1 = black) of a timestamp. */
export function stampCells(epochMs: number): Uint8Array {
  const cells = new Uint8Array(STAMP_CELLS);
  let ms = Math.floor(epochMs) % 2 ** STAMP_DATA_BITS;
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  cells.set([1, 0, 1], 0);
  cells.set([1, 0, 1], STAMP_CELLS - STAMP_GUARD_CELLS);
  let crc = 0xffff;
  for (let i = 0; i < STAMP_DATA_BITS; i++) {
    const bit = Math.floor(ms / 2 ** (STAMP_DATA_BITS - 1 - i)) % 2;
    cells[STAMP_GUARD_CELLS + i] = bit;
    const top = (crc >> 15) & 1;
    crc = (crc << 1) & 0xffff;
    if (top ^ bit) crc ^= 0x1021;
  }
  for (let i = 0; i < STAMP_CRC_BITS; i++) {
    cells[STAMP_GUARD_CELLS + STAMP_DATA_BITS + i] = (crc >> (STAMP_CRC_BITS - 1 - i)) & 1;
  }
  return cells;
}

/**
 * Draws the timestamp barcode of `epochMs` into a luma plane of width × height (and neutral chroma
 * into the quarter-size u/v planes when given; pass them for colour frames so the stamp stays grey).
 */
export function drawStamp(
  y: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  epochMs: number,
  u?: Uint8Array | Uint8ClampedArray,
  v?: Uint8Array | Uint8ClampedArray,
): void {
  const layout = stampLayout(width, height);
  const b = layout.block;
  if (b === 0) return;
  const { box } = layout;
  const x1 = Math.min(width, box.x + box.width);
  const y1 = Math.min(height, box.y + box.height);
  for (let r = Math.max(0, box.y); r < y1; r++) y.fill(STAMP_WHITE, r * width + Math.max(0, box.x), r * width + x1);
  const cells = stampCells(epochMs);
  for (let i = 0; i < STAMP_CELLS; i++) {
    if (!cells[i]) continue;
    const cx = layout.x + i * b;
    for (let r = layout.y; r < layout.y + b; r++) y.fill(STAMP_BLACK, r * width + cx, r * width + cx + b);
  }
  if (u && v) {
    const cw = width >> 1;
    const cx0 = Math.max(0, box.x >> 1);
    const cx1 = Math.min(cw, (x1 + 1) >> 1);
    for (let r = Math.max(0, box.y >> 1); r < Math.min(height >> 1, (y1 + 1) >> 1); r++) {
      u.fill(128, r * cw + cx0, r * cw + cx1);
      v.fill(128, r * cw + cx0, r * cw + cx1);
    }
  }
}

/**
 * Reads the timestamp from an RGBA image of a frame width × height (e.g. canvas getImageData of the
 * decoded video at its native size); `rgba` may hold only the frame's top rows (at least 3 blocks,
 * height / 15), which is all the stamp needs. Returns the epoch ms, or null when there is no valid stamp
 * (checksum mismatch, too little contrast, frame too small).
 *
 * Self-contained on purpose (no imports, no module constants, no outside helpers): a benchmark
 * ships `decodeStamp.toString()` into the browser with Playwright's page.evaluate. The layout
 * constants are duplicated here. Besides the layout of this size it also tries the block size of a
 * frame that the encoder scaled down (height / 45 unrounded).
 */
export function decodeStamp(rgba: Uint8ClampedArray, width: number, height: number): number | null {
  const CELLS = 64;
  const TOTAL_BLOCKS = 66;
  const GUARD = 3;
  const DATA_BITS = 42;
  const CRC_BITS = 16;
  const MIN_CONTRAST = 48;
  // The image may hold only the frame's top rows (the stamp sits in the first three block rows).
  const rows = Math.min(height, Math.floor(rgba.length / (width * 4)));
  if (!(width > 0 && height > 0) || rows < 1) return null;

  let nominal = Math.max(8, Math.round(height / 45));
  if (nominal * TOTAL_BLOCKS > width) nominal = Math.floor(width / TOTAL_BLOCKS);
  const candidates = [nominal, Math.min(height / 45, width / TOTAL_BLOCKS)];
  const levels = new Float64Array(CELLS);

  for (let k = 0; k < candidates.length; k++) {
    const b = candidates[k]!;
    if (b < 2 || b * 3 > height || (k > 0 && Math.abs(b - nominal) < 0.25)) continue;
    // Mean luma of the inner half of each cell (edges blur under compression).
    const y0 = Math.round(b + b / 4);
    const y1 = Math.max(y0 + 1, Math.round(b + (3 * b) / 4));
    for (let i = 0; i < CELLS; i++) {
      const x0 = Math.round(b + i * b + b / 4);
      const x1 = Math.max(x0 + 1, Math.round(b + i * b + (3 * b) / 4));
      let sum = 0;
      let n = 0;
      for (let yy = y0; yy < y1 && yy < rows; yy++) {
        for (let xx = x0; xx < x1 && xx < width; xx++) {
          const p = (yy * width + xx) * 4;
          sum += 0.299 * rgba[p]! + 0.587 * rgba[p + 1]! + 0.114 * rgba[p + 2]!;
          n++;
        }
      }
      levels[i] = n > 0 ? sum / n : 0;
    }
    const black = (levels[0]! + levels[2]! + levels[CELLS - 3]! + levels[CELLS - 1]!) / 4;
    const white = (levels[1]! + levels[CELLS - 2]!) / 2;
    if (white - black < MIN_CONTRAST) continue;
    // Every guard cell must be on its side of the threshold.
    const threshold = (black + white) / 2;
    if (
      levels[0]! >= threshold ||
      levels[2]! >= threshold ||
      levels[CELLS - 3]! >= threshold ||
      levels[CELLS - 1]! >= threshold ||
      levels[1]! < threshold ||
      levels[CELLS - 2]! < threshold
    ) {
      continue;
    }
    let ms = 0;
    let crc = 0xffff;
    for (let i = 0; i < DATA_BITS; i++) {
      const bit = levels[GUARD + i]! < threshold ? 1 : 0;
      ms = ms * 2 + bit;
      const top = (crc >> 15) & 1;
      crc = (crc << 1) & 0xffff;
      if (top ^ bit) crc ^= 0x1021;
    }
    let read = 0;
    for (let i = 0; i < CRC_BITS; i++) read = (read << 1) | (levels[GUARD + DATA_BITS + i]! < threshold ? 1 : 0);
    if (read === crc) return ms;
  }
  return null;
}
