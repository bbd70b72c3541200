/**
 * A 5×7 bitmap font for printable ASCII (0x20–0x7E) and text drawing straight into a planar
 * (I420) frame. Characters outside that range draw as '?'.
 */

/** Glyph cell in font pixels (the glyph is 5×7, one column and one row of spacing). */
export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;
export const CHAR_ADVANCE = 6;

/**
 * The classic public-domain 5×7 LCD font: 5 column bytes per glyph, bit 0 = top row, for 0x20–0x7E
 * (95 glyphs × 10 hex digits).
 */
const GLYPH_HEX =
  '0000000000' + // ' '
  '00005f0000' + // !
  '0007000700' + // "
  '147f147f14' + // #
  '242a7f2a12' + // $
  '2313086462' + // %
  '3649552250' + // &
  '0005030000' + // '
  '001c224100' + // (
  '0041221c00' + // )
  '14083e0814' + // *
  '08083e0808' + // +
  '0050300000' + // ,
  '0808080808' + // -
  '0060600000' + // .
  '2010080402' + // /
  '3e5149453e' + // 0
  '00427f4000' + // 1
  '4261514946' + // 2
  '2141454b31' + // 3
  '1814127f10' + // 4
  '2745454539' + // 5
  '3c4a494930' + // 6
  '0171090503' + // 7
  '3649494936' + // 8
  '064949291e' + // 9
  '0036360000' + // :
  '0056360000' + // ;
  '0814224100' + // <
  '1414141414' + // =
  '0041221408' + // >
  '0201510906' + // ?
  '324979413e' + // @
  '7e1111117e' + // A
  '7f49494936' + // B
  '3e41414122' + // C
  '7f4141221c' + // D
  '7f49494941' + // E
  '7f09090901' + // F
  '3e4149497a' + // G
  '7f0808087f' + // H
  '00417f4100' + // I
  '2040413f01' + // J
  '7f08142241' + // K
  '7f40404040' + // L
  '7f020c027f' + // M
  '7f0408107f' + // N
  '3e4141413e' + // O
  '7f09090906' + // P
  '3e4151215e' + // Q
  '7f09192946' + // R
  '4649494931' + // S
  '01017f0101' + // T
  '3f4040403f' + // U
  '1f2040201f' + // V
  '3f4038403f' + // W
  '6314081463' + // X
  '0708700807' + // Y
  '6151494543' + // Z
  '007f414100' + // [
  '0204081020' + // backslash
  '0041417f00' + // ]
  '0402010204' + // ^
  '4040404040' + // _
  '0001020400' + // `
  '2054545478' + // a
  '7f48444438' + // b
  '3844444420' + // c
  '384444487f' + // d
  '3854545418' + // e
  '087e090102' + // f
  '0c5252523e' + // g
  '7f08040478' + // h
  '00447d4000' + // i
  '2040443d00' + // j
  '7f10284400' + // k
  '00417f4000' + // l
  '7c04180478' + // m
  '7c08040478' + // n
  '3844444438' + // o
  '7c14141408' + // p
  '081414187c' + // q
  '7c08040408' + // r
  '4854545420' + // s
  '043f444020' + // t
  '3c4040207c' + // u
  '1c2040201c' + // v
  '3c4030403c' + // w
  '4428102844' + // x
  '0c5050503c' + // y
  '4464544c44' + // z
  '0008364100' + // {
  '00007f0000' + // |
  '0041360800' + // }
  '1008081008'; // ~

const FIRST = 0x20;
const LAST = 0x7e;
const QUESTION = 0x3f;

/** GLYPHS[(code - 0x20) * 35 + row * 5 + col] = 1 where the glyph has ink (row-major, top row first). */
const GLYPHS: Uint8Array = (() => {
  const n = LAST - FIRST + 1;
  const out = new Uint8Array(n * GLYPH_WIDTH * GLYPH_HEIGHT);
  for (let g = 0; g < n; g++) {
    for (let col = 0; col < GLYPH_WIDTH; col++) {
      const bits = parseInt(GLYPH_HEX.slice((g * GLYPH_WIDTH + col) * 2, (g * GLYPH_WIDTH + col) * 2 + 2), 16);
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        if (bits & (1 << row)) out[g * GLYPH_WIDTH * GLYPH_HEIGHT + row * GLYPH_WIDTH + col] = 1;
      }
    }
  }
  return out;
})();

/** The glyph index of a UTF-16 code unit (anything not printable ASCII maps to '?'). */
function glyphIndex(code: number): number {
  return (code >= FIRST && code <= LAST ? code : QUESTION) - FIRST;
}

/** The glyph of a character as 7 strings of 5 '#'/'.' (tests and debugging). */
export function glyphRows(ch: string): string[] {
  const g = glyphIndex(ch.codePointAt(0) ?? QUESTION);
  const rows: string[] = [];
  for (let row = 0; row < GLYPH_HEIGHT; row++) {
    let s = '';
    for (let col = 0; col < GLYPH_WIDTH; col++) {
      s += GLYPHS[g * GLYPH_WIDTH * GLYPH_HEIGHT + row * GLYPH_WIDTH + col] ? '#' : '.';
    }
    rows.push(s);
  }
  return rows;
}

/** One glyph per code point: astral characters (emoji) count as one '?', not two. */
function codes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0) ?? QUESTION);
  return out;
}

/** Size in pixels of a single line of text at a scale (no padding). */
export function measureText(text: string, scale: number): { width: number; height: number } {
  const n = codes(text).length;
  if (n === 0) return { width: 0, height: 0 };
  return { width: (n * CHAR_ADVANCE - 1) * scale, height: GLYPH_HEIGHT * scale };
}

export interface TextStyle {
  /** Font pixel size in frame pixels (integer ≥ 1). */
  scale: number;
  /** Luma of the ink (default 235, video white). */
  fg?: number;
  /** Luma of the background box (default 24); null draws no box. */
  bg?: number | null;
  /** Box padding around the text in frame pixels (default 2 × scale). */
  pad?: number;
  /** Chroma planes (quarter size): the box gets neutral chroma (128) so the text stays grey. */
  u?: Uint8Array | Uint8ClampedArray;
  v?: Uint8Array | Uint8ClampedArray;
}

/**
 * Draws one line of text with its top-left glyph corner at (x, y) into a luma plane of
 * width × height (and neutral chroma in u/v when given). Clipped to the frame. Returns the box drawn
 * (x, y, width, height, padding included; zero size for empty text).
 */
export function drawText(
  luma: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  x: number,
  y: number,
  text: string,
  style: TextStyle,
): { x: number; y: number; width: number; height: number } {
  const scale = Math.max(1, Math.floor(style.scale));
  const fg = style.fg ?? 235;
  const bg = style.bg === undefined ? 24 : style.bg;
  const pad = style.pad ?? 2 * scale;
  const chars = codes(text);
  if (chars.length === 0) return { x, y, width: 0, height: 0 };
  const size = measureText(text, scale);
  const bx = Math.round(x - pad);
  const by = Math.round(y - pad);
  const bw = size.width + 2 * pad;
  const bh = size.height + 2 * pad;
  if (bg !== null) {
    fillRect(luma, width, height, bx, by, bw, bh, bg);
    if (style.u && style.v) {
      const cw = width >> 1;
      const ch = height >> 1;
      fillRect(style.u, cw, ch, bx >> 1, by >> 1, (bw + 2) >> 1, (bh + 2) >> 1, 128);
      fillRect(style.v, cw, ch, bx >> 1, by >> 1, (bw + 2) >> 1, (bh + 2) >> 1, 128);
    }
  }
  const ox = Math.round(x);
  const oy = Math.round(y);
  for (let i = 0; i < chars.length; i++) {
    const g = glyphIndex(chars[i]!) * GLYPH_WIDTH * GLYPH_HEIGHT;
    const gx = ox + i * CHAR_ADVANCE * scale;
    if (gx >= width) break;
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      for (let col = 0; col < GLYPH_WIDTH; col++) {
        if (GLYPHS[g + row * GLYPH_WIDTH + col]) {
          fillRect(luma, width, height, gx + col * scale, oy + row * scale, scale, scale, fg);
        }
      }
    }
  }
  return { x: bx, y: by, width: bw, height: bh };
}

/** Fills a rectangle of a plane (clipped) with one value. */
export function fillRect(
  plane: Uint8Array | Uint8ClampedArray,
  planeWidth: number,
  planeHeight: number,
  x: number,
  y: number,
  w: number,
  h: number,
  value: number,
): void {
  const x0 = Math.max(0, x);
  const y0 = Math.max(0, y);
  const x1 = Math.min(planeWidth, x + w);
  const y1 = Math.min(planeHeight, y + h);
  if (x1 <= x0 || y1 <= y0) return;
  for (let r = y0; r < y1; r++) plane.fill(value, r * planeWidth + x0, r * planeWidth + x1);
}
