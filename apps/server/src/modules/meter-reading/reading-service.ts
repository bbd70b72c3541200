import type { CheckItem } from '@portal/contract';
import { readGaugeOffThread } from '../../lib/image-worker.ts';

/**
 * The reading-service interface (issue 17, docs/meter-reading.md): a photo of a meter and its check
 * item in, the value (or why there is none) out. Two implementations: the built-in reader (QR code and
 * needle, below) and the hakaru.ai client (hakaru-client.ts); `readingServiceFor` picks the item's.
 */
export type ReadingResult =
  { ok: true; value: number; qr: string } | { ok: false; code: 'MARKER_NOT_FOUND' | 'READ_FAILED'; message: string };

/** What a reading service needs of a check item. */
export type MeterItem = Pick<
  CheckItem,
  'id' | 'buildingId' | 'qrCodeNumber' | 'taskId' | 'deviceId' | 'meterType' | 'readingService' | 'definition'
>;

export interface MeterReadingService {
  read(photo: Uint8Array, item: MeterItem): Promise<ReadingResult>;
}

/** The meter's scale from the item's definition JSON (`{ "min": 0, "max": 100, "unit": "kPa" }`; default 0..100). */
export function meterScale(definition: string): { min: number; max: number; unit: string | null } {
  let min = 0;
  let max = 100;
  let unit: string | null = null;
  try {
    const d = JSON.parse(definition) as Record<string, unknown>;
    if (typeof d.min === 'number' && typeof d.max === 'number' && Number.isFinite(d.min) && d.max > d.min) {
      min = d.min;
      max = d.max;
    }
    if (typeof d.unit === 'string') unit = d.unit;
  } catch {
    // A definition is checked to be a JSON object when saved; anything else reads with the default scale.
  }
  return { min, max, unit };
}

/**
 * The built-in reader: the QR code next to the meter is found and decoded (jsQR), it must carry the
 * item's QR code number (else MARKER_NOT_FOUND, spec §8 'Marker not found'), the dial is located
 * relative to it and the needle's angle read into the item's scale. The image work runs on the image
 * worker thread (a 720p photo takes some hundred milliseconds).
 */
export const builtinReader: MeterReadingService = {
  async read(photo, item) {
    const scale = meterScale(item.definition);
    let r: Awaited<ReturnType<typeof readGaugeOffThread>>;
    try {
      r = await readGaugeOffThread(photo, item.qrCodeNumber || null, scale);
    } catch (err) {
      return { ok: false, code: 'READ_FAILED', message: (err as Error).message };
    }
    if (!r.ok) return { ok: false, code: r.code, message: r.message };
    return { ok: true, value: Math.round(r.value * 1000) / 1000, qr: r.qr };
  },
};
