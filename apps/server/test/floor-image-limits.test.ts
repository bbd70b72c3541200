import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorDetailSchema } from '@portal/contract';
import { withinImageLimits } from '../src/modules/floors/image-header.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/** A map image declaring a huge size (a decompression bomb in a few bytes) is refused before it is stored. */
let t: TestApp;
let admin = '';
let floorId = 0;

/** A PNG signature and IHDR chunk declaring this size, then an empty IDAT and IEND: all the parser reads. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(0)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function upload(bytes: Buffer) {
  const boundary = '----portal-limits-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="map.png"\r\nContent-Type: image/png\r\n\r\n`;
  return t.inject({
    method: 'PUT',
    url: `/api/floors/${floorId}/map-image`,
    headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.as('orgadmin@demo.example')).authorization;
  const building = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  const created = await t.call('POST', `/buildings/${building.id}/floors`, admin, {
    name: 'Limits',
    type: 'office',
    index: 41,
    resolution: 0.05,
    originX: 0,
    originY: 0,
  });
  expect(created.statusCode).toBe(201);
  floorId = floorDetailSchema.parse(created.json()).id;
});
afterAll(async () => {
  await t?.close();
});

describe('map image dimensions', () => {
  it('limits each side and the pixel count', () => {
    expect(withinImageLimits({ width: 16_384, height: 6_000 })).toBe(true);
    expect(withinImageLimits({ width: 16_385, height: 10 })).toBe(false);
    expect(withinImageLimits({ width: 10, height: 16_385 })).toBe(false);
    expect(withinImageLimits({ width: 16_384, height: 16_384 })).toBe(false); // 268 MP
    expect(withinImageLimits({ width: 262_140, height: 262_140 })).toBe(false);
  });

  it('refuses an upload declaring 262140x262140 with a clear 400, storing nothing', async () => {
    const filesBefore = await t.db.kysely.selectFrom('files').select('key').execute();
    const res = await upload(pngHeader(262_140, 262_140));
    expect(res.statusCode).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('262140x262140');
    expect(error.details).toEqual([{ path: 'file', message: 'validation.imageDimensions' }]);
    expect(await t.db.kysely.selectFrom('files').select('key').execute()).toEqual(filesBefore);
    const floor = floorDetailSchema.parse((await t.call('GET', `/floors/${floorId}`, admin)).json());
    expect(floor.img).toBeNull();
  });

  it('still accepts an image within the limits', async () => {
    const res = await upload(pngHeader(4, 3));
    expect(res.statusCode).toBe(200);
    expect(floorDetailSchema.parse(res.json()).imgWidth).toBe(4);
  });
});
