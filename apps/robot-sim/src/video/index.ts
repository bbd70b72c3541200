/**
 * Synthetic camera video of the simulated robots: frame rendering (I420 for WebRTC, RGBA for
 * photos), the timestamp barcode, a bitmap font and a PNG encoder. Pure TypeScript, no native deps.
 */
export {
  FrameRenderer,
  CAMERA_SPECS,
  CEILING_HEIGHT,
  MAX_VIEW_DISTANCE,
  RAYCAST_RESOLUTION,
  formatLocalTime,
  type CameraView,
  type CameraSpec,
} from './render.ts';
export {
  drawStamp,
  decodeStamp,
  stampLayout,
  stampCells,
  STAMP_DATA_BITS,
  STAMP_CRC_BITS,
  STAMP_GUARD_CELLS,
  STAMP_CELLS,
  STAMP_TOTAL_BLOCKS,
  STAMP_QUIET_BLOCKS,
  STAMP_BLACK,
  STAMP_WHITE,
  type StampLayout,
} from './stamp.ts';
export {
  drawText,
  measureText,
  fillRect,
  glyphRows,
  GLYPH_WIDTH,
  GLYPH_HEIGHT,
  CHAR_ADVANCE,
  type TextStyle,
} from './font.ts';
export { encodePng } from './png.ts';
export { i420ToRgba, i420Size, rgbToY, rgbToU, rgbToV } from './yuv.ts';
