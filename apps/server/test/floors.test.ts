import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  errorBodySchema,
  floorDetailSchema,
  MAP_IMAGE_MAX_BYTES,
  type FloorDetail,
  type InitData,
} from '@portal/contract';
import { readImageHeader } from '../src/modules/floors/image-header.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Floors, their map images (multipart upload, PNG/JPEG by magic bytes) and serving files (bearer or signed URL). */
let t: TestApp;
let demoBuildingId: number;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '', otherGeneral: '' };

const otherData: InitData = {
  organization: { name: 'Other Floors Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-f.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
    {
      loginId: 'ops@other-f.example',
      firstName: 'B',
      lastName: 'Other',
      password: 'Other-Ops-2026x',
      type: 0,
      building: 0,
    },
  ],
};

// ---------------------------------------------------------------- test images

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A real, minimal RGB PNG of the given size (grey pixels). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type RGB
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** SOI, an APP0 segment, SOF0 with the size, EOI: what the header parser needs. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

function multipart(bytes: Buffer, contentType: string, { field = 'file', filename = 'map.png' } = {}) {
  const boundary = '----portal-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

// ---------------------------------------------------------------- helpers

const call: TestApp['call'] = (...args) => t.call(...args);

const upload = (
  floorId: number,
  authorization: string,
  bytes: Buffer,
  contentType: string,
  opts?: { field?: string; filename?: string },
) => {
  const body = multipart(bytes, contentType, opts);
  return t.inject({
    method: 'PUT',
    url: `/api/floors/${floorId}/map-image`,
    headers: { authorization, ...body.headers },
    payload: body.payload,
  });
};

const codeOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;

const floorInput = (name = '3F', index = 3) => ({
  name,
  type: 'office',
  index,
  resolution: 0.05,
  originX: -10.5,
  originY: 4.25,
});

async function createFloor(name = '3F', index = 3, buildingId = demoBuildingId): Promise<FloorDetail> {
  const res = await call('POST', `/buildings/${buildingId}/floors`, auth.orgAdmin, floorInput(name, index));
  expect(res.statusCode).toBe(201);
  return floorDetailSchema.parse(res.json());
}

const fileKeyOf = (img: string) => /\/files\/([0-9a-f]{32})/.exec(img)?.[1] ?? '';
const filesDir = () => join(t.config.dataDir, 'files');

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  expect((await call('POST', '/init-data', auth.sysAdmin, otherData)).statusCode).toBe(201);
  const login = async (loginId: string, password: string) =>
    `Bearer ${(await t.login(loginId, password)).json<{ token: string }>().token}`;
  auth.otherAdmin = await login('admin@other-f.example', 'Other-Admin-2026');
  auth.otherGeneral = await login('ops@other-f.example', 'Other-Ops-2026x');
  auth.general = (await t.as('operator@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  demoBuildingId = (
    await t.db.kysely.selectFrom('buildings').select('id').where('name', '=', 'Demo Tower').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe('image header parser', () => {
  it('reads PNG and JPEG sizes and refuses anything else', () => {
    expect(readImageHeader(png(7, 5))).toEqual({ contentType: 'image/png', width: 7, height: 5 });
    expect(readImageHeader(jpeg(640, 480))).toEqual({ contentType: 'image/jpeg', width: 640, height: 480 });
    expect(readImageHeader(Buffer.from('not an image at all, just text'))).toBeNull();
    expect(readImageHeader(png(7, 5).subarray(0, 20))).toBeNull();
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(readImageHeader(Buffer.alloc(0))).toBeNull();
  });
});

describe('floors', () => {
  it('creates, reads, updates and deletes a floor with its map metadata, auditing each change', async () => {
    const f = await createFloor('Roof', 9);
    expect(f).toMatchObject({
      name: 'Roof',
      index: 9,
      buildingId: demoBuildingId,
      img: null,
      imgWidth: null,
      resolution: 0.05,
      originX: -10.5,
      originY: 4.25,
    });
    expect(floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.general)).json()).id).toBe(f.id);
    // The directory's list shows it too.
    const list = (await call('GET', `/buildings/${demoBuildingId}/floors`, auth.general)).json<Array<{ id: number }>>();
    expect(list.map((x) => x.id)).toContain(f.id);

    const res = await call('PATCH', `/floors/${f.id}`, auth.orgAdmin, {
      ...floorInput('B2', -1),
      type: 'parking',
      originX: null,
      updatedAt: f.updatedAt,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'B2', index: -1, type: 'parking', originX: null, originY: 4.25 });

    expect((await call('DELETE', `/floors/${f.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['floor.create', 'floor.update', 'floor.delete']) {
      const rows = await t.db.kysely
        .selectFrom('audit_logs')
        .selectAll()
        .where('action', '=', action)
        .where('target_id', '=', String(f.id))
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.ip).toBeTruthy();
    }
  });

  it('refuses a stale edit with 409 and keeps the first edit', async () => {
    const f = await createFloor('4F', 4);
    expect(
      (await call('PATCH', `/floors/${f.id}`, auth.orgAdmin, { ...floorInput('First', 4), updatedAt: f.updatedAt }))
        .statusCode,
    ).toBe(200);
    const second = await call('PATCH', `/floors/${f.id}`, auth.sysAdmin, {
      ...floorInput('Second', 4),
      updatedAt: f.updatedAt,
    });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('STALE_UPDATE');
    expect(floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).json()).name).toBe('First');
  });

  it('answers bad input with 400 and unknown ids with 404', async () => {
    for (const body of [
      {},
      floorInput(''),
      { ...floorInput(), type: 'garden' },
      { ...floorInput(), index: 1.5 },
      { ...floorInput(), resolution: 0 },
    ]) {
      const res = await call('POST', `/buildings/${demoBuildingId}/floors`, auth.orgAdmin, body);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
    expect((await call('POST', '/buildings/999999/floors', auth.orgAdmin, floorInput())).statusCode).toBe(404);
    expect((await call('GET', '/floors/999999', auth.orgAdmin)).statusCode).toBe(404);
    expect((await call('PATCH', '/floors/999999', auth.orgAdmin, { ...floorInput(), updatedAt: 'x' })).statusCode).toBe(
      404,
    );
  });
});

describe('map images', () => {
  it('stores a real PNG, answers its size and a signed URL, and serves it with caching headers', async () => {
    const f = await createFloor('PNG floor', 5);
    const image = png(12, 8);
    const res = await upload(f.id, auth.orgAdmin, image, 'image/png');
    expect(res.statusCode).toBe(200);
    const detail = floorDetailSchema.parse(res.json());
    expect(detail).toMatchObject({ imgWidth: 12, imgHeight: 8, resolution: 0.05, originX: -10.5 });
    expect(detail.img).toMatch(/^\/api\/files\/[0-9a-f]{32}\?exp=\d+&sig=[A-Za-z0-9_-]+$/);
    const key = fileKeyOf(detail.img!);

    const row = await t.db.kysely.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    const sha = createHash('sha256').update(image).digest('hex');
    expect(row).toMatchObject({
      content_type: 'image/png',
      size: image.length,
      sha256: sha,
      building_id: demoBuildingId,
    });
    expect(existsSync(join(filesDir(), key))).toBe(true);
    const floorRow = await t.db.kysely
      .selectFrom('floors')
      .select(['img'])
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(floorRow.img).toBe(`/api/files/${key}`);
    // The floor list answers the same image as a signed URL too.
    const list = await t.inject({
      method: 'GET',
      url: `/api/buildings/${demoBuildingId}/floors`,
      headers: { authorization: auth.orgAdmin },
    });
    const listed = list.json<Array<{ id: number; img: string | null }>>().find((x) => x.id === f.id);
    expect(listed?.img).toMatch(new RegExp(`^/api/files/${key}\\?exp=\\d+&sig=`));
    expect((await t.inject({ method: 'GET', url: listed!.img! })).statusCode).toBe(200);

    // Signed URL: no bearer needed.
    const signed = await t.inject({ method: 'GET', url: detail.img! });
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-type']).toBe('image/png');
    expect(signed.headers['cache-control']).toBe('private, max-age=3600');
    expect(signed.headers.etag).toBe(`"${sha}"`);
    expect(signed.rawPayload.equals(image)).toBe(true);
    const again = await t.inject({ method: 'GET', url: detail.img!, headers: { 'if-none-match': `"${sha}"` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // Bearer within scope, without a signature.
    const plain = await t.inject({ method: 'GET', url: `/api/files/${key}`, headers: { authorization: auth.general } });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.equals(image)).toBe(true);
    expect((await t.inject({ method: 'GET', url: `/api/files/${key}` })).statusCode).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: `/api/files/${key}`, headers: { authorization: auth.otherAdmin } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `/api/files/${'0'.repeat(32)}`,
          headers: { authorization: auth.orgAdmin },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: '/api/files/..%2F..%2Fportal.db',
          headers: { authorization: auth.orgAdmin },
        })
      ).statusCode,
    ).toBe(404);

    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'floor.map-image')
      .where('target_id', '=', String(f.id))
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses tampered, foreign and expired signatures with 403', async () => {
    const f = await createFloor('Signed floor', 6);
    const detail = floorDetailSchema.parse((await upload(f.id, auth.orgAdmin, png(3, 3), 'image/png')).json());
    const url = new URL(detail.img!, 'http://x');
    const key = fileKeyOf(detail.img!);
    const exp = Number(url.searchParams.get('exp'));
    const sig = url.searchParams.get('sig')!;
    const tampered = sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA');
    const other = await createFloor('Other signed', 7);
    const otherKey = fileKeyOf(
      floorDetailSchema.parse((await upload(other.id, auth.orgAdmin, png(2, 2), 'image/png')).json()).img!,
    );
    for (const q of [`exp=${exp}&sig=${tampered}`, `exp=${exp + 300}&sig=${sig}`, `exp=${exp}`, `sig=${sig}`]) {
      const res = await t.inject({ method: 'GET', url: `/api/files/${key}?${q}` });
      expect({ q, status: res.statusCode }).toEqual({ q, status: 403 });
      expect(codeOf(res)).toBe('FORBIDDEN');
    }
    // A signature is for one file only.
    expect((await t.inject({ method: 'GET', url: `/api/files/${otherKey}?exp=${exp}&sig=${sig}` })).statusCode).toBe(
      403,
    );
    expect((await t.inject({ method: 'GET', url: detail.img! })).statusCode).toBe(200);
    t.advance(66);
    try {
      const expired = await t.inject({ method: 'GET', url: detail.img! });
      expect(expired.statusCode).toBe(403);
      // A fresh URL from the API works again.
      const fresh = floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).json());
      expect(fresh.img).not.toBe(detail.img);
      expect((await t.inject({ method: 'GET', url: fresh.img! })).statusCode).toBe(200);
    } finally {
      t.advance(-66);
    }
  });

  it('stores a JPEG, replaces the previous image file and deletes it', async () => {
    const f = await createFloor('JPEG floor', 8);
    const first = floorDetailSchema.parse((await upload(f.id, auth.orgAdmin, png(4, 4), 'image/png')).json());
    const firstKey = fileKeyOf(first.img!);
    const res = await upload(f.id, auth.orgAdmin, jpeg(1024, 768), 'image/jpeg', { filename: 'map.jpg' });
    expect(res.statusCode).toBe(200);
    const second = floorDetailSchema.parse(res.json());
    expect(second).toMatchObject({ imgWidth: 1024, imgHeight: 768 });
    const secondKey = fileKeyOf(second.img!);
    expect(secondKey).not.toBe(firstKey);
    expect(existsSync(join(filesDir(), firstKey))).toBe(false);
    expect(
      await t.db.kysely.selectFrom('files').select('key').where('key', '=', firstKey).executeTakeFirst(),
    ).toBeUndefined();
    const served = await t.inject({ method: 'GET', url: second.img! });
    expect(served.headers['content-type']).toBe('image/jpeg');

    expect((await call('DELETE', `/floors/${f.id}/map-image`, auth.orgAdmin)).statusCode).toBe(204);
    const cleared = floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).json());
    expect(cleared).toMatchObject({ img: null, imgWidth: null, imgHeight: null, resolution: 0.05 });
    expect(existsSync(join(filesDir(), secondKey))).toBe(false);
    expect((await t.inject({ method: 'GET', url: second.img! })).statusCode).toBe(404);
    expect(
      await t.db.kysely
        .selectFrom('audit_logs')
        .select('id')
        .where('action', '=', 'floor.map-image.delete')
        .where('target_id', '=', String(f.id))
        .execute(),
    ).toHaveLength(1);
  });

  it('deletes the image file with its floor and with its building', async () => {
    const f = await createFloor('Doomed', 10);
    const key = fileKeyOf(
      floorDetailSchema.parse((await upload(f.id, auth.orgAdmin, png(2, 2), 'image/png')).json()).img!,
    );
    expect((await call('DELETE', `/floors/${f.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect(existsSync(join(filesDir(), key))).toBe(false);

    const b = await call('POST', '/buildings', auth.orgAdmin, {
      name: 'Doomed B',
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId: (
        await t.db.kysely
          .selectFrom('buildings')
          .select('organization_id')
          .where('id', '=', demoBuildingId)
          .executeTakeFirstOrThrow()
      ).organization_id,
      status: 1,
    });
    const bid = b.json<{ id: number }>().id;
    const bf = await createFloor('1F', 1, bid);
    const bkey = fileKeyOf(
      floorDetailSchema.parse((await upload(bf.id, auth.orgAdmin, png(2, 2), 'image/png')).json()).img!,
    );
    expect((await call('DELETE', `/buildings/${bid}`, auth.orgAdmin)).statusCode).toBe(204);
    expect(existsSync(join(filesDir(), bkey))).toBe(false);
    expect(
      await t.db.kysely.selectFrom('files').select('key').where('key', '=', bkey).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses a fake PNG, wrong declared types, a missing field and a non-multipart body, storing nothing', async () => {
    const f = await createFloor('Refusals', 11);
    const before = readdirSync(filesDir()).length;
    const fake = await upload(
      f.id,
      auth.orgAdmin,
      Buffer.from('this is only text pretending to be a PNG'),
      'image/png',
    );
    expect(fake.statusCode).toBe(415);
    expect(codeOf(fake)).toBe('UNSUPPORTED_FILE_TYPE');
    const gif = await upload(f.id, auth.orgAdmin, Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/gif', {
      filename: 'x.gif',
    });
    expect(gif.statusCode).toBe(415);
    const declaredText = await upload(f.id, auth.orgAdmin, png(2, 2), 'text/plain');
    expect(declaredText.statusCode).toBe(415);
    const wrongField = await upload(f.id, auth.orgAdmin, png(2, 2), 'image/png', { field: 'image' });
    expect(wrongField.statusCode).toBe(400);
    const json = await call('PUT', `/floors/${f.id}/map-image`, auth.orgAdmin, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const broken = await t.inject({
      method: 'PUT',
      url: `/api/floors/${f.id}/map-image`,
      headers: { authorization: auth.orgAdmin, 'content-type': 'multipart/form-data' },
      payload: 'garbage',
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
    expect(readdirSync(filesDir()).length).toBe(before);
    expect(floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).json()).img).toBeNull();
  });

  it('refuses an image over the size limit with 413 and a clear message', async () => {
    const f = await createFloor('Huge', 12);
    const big = Buffer.concat([png(2, 2), Buffer.alloc(MAP_IMAGE_MAX_BYTES + 1 - png(2, 2).length + 10)]);
    const res = await upload(f.id, auth.orgAdmin, big, 'image/png');
    expect(res.statusCode).toBe(413);
    const body = errorBodySchema.parse(res.json());
    expect(body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.error.message).toMatch(/10 MB/);
    expect(floorDetailSchema.parse((await call('GET', `/floors/${f.id}`, auth.orgAdmin)).json()).img).toBeNull();
  });
});

describe('roles and tenancy on every floor route', () => {
  async function demoRoutes() {
    const f = await createFloor('Sweep', 13);
    const img = floorDetailSchema.parse((await upload(f.id, auth.orgAdmin, png(2, 2), 'image/png')).json()).img!;
    const writes: Array<{ method: InjectOptions['method']; url: string; body?: unknown; file?: boolean }> = [
      { method: 'POST', url: `/buildings/${demoBuildingId}/floors`, body: floorInput('Hacked', 1) },
      { method: 'PATCH', url: `/floors/${f.id}`, body: { ...floorInput('Hacked', 1), updatedAt: f.updatedAt } },
      { method: 'PUT', url: `/floors/${f.id}/map-image`, file: true },
      { method: 'DELETE', url: `/floors/${f.id}/map-image` },
      { method: 'DELETE', url: `/floors/${f.id}` },
    ];
    return { f, key: fileKeyOf(img), writes };
  }
  const send = (
    w: { method: InjectOptions['method']; url: string; body?: unknown; file?: boolean },
    authorization: string,
  ) =>
    w.file
      ? upload(Number(/\/floors\/(\d+)/.exec(w.url)![1]), authorization, png(5, 5), 'image/png')
      : call(w.method, w.url, authorization, w.body);
  const snapshot = async (floorId: number) =>
    JSON.stringify([
      await t.db.kysely
        .selectFrom('floors')
        .selectAll()
        .where('building_id', '=', demoBuildingId)
        .orderBy('id')
        .execute(),
      await t.db.kysely.selectFrom('files').selectAll().orderBy('key').execute(),
      floorId,
    ]);

  it('answers 404 to another organization on every route, and changes nothing', async () => {
    const { f, key, writes } = await demoRoutes();
    const before = await snapshot(f.id);
    for (const who of ['otherAdmin', 'otherGeneral'] as const) {
      expect((await call('GET', `/floors/${f.id}`, auth[who])).statusCode).toBe(404);
      expect(
        (await t.inject({ method: 'GET', url: `/api/files/${key}`, headers: { authorization: auth[who] } })).statusCode,
      ).toBe(404);
    }
    for (const w of writes) {
      const res = await send(w, auth.otherAdmin);
      expect({ url: w.url, method: w.method, status: res.statusCode }).toEqual({
        url: w.url,
        method: w.method,
        status: 404,
      });
    }
    expect(await snapshot(f.id)).toBe(before);
  });

  it('answers 403 to general operators and area managers on every write route, and changes nothing', async () => {
    const { f, writes } = await demoRoutes();
    const before = await snapshot(f.id);
    for (const who of ['general', 'manager'] as const) {
      for (const w of writes) {
        const res = await send(w, auth[who]);
        expect({ who, url: w.url, method: w.method, status: res.statusCode }).toEqual({
          who,
          url: w.url,
          method: w.method,
          status: 403,
        });
      }
    }
    expect(await snapshot(f.id)).toBe(before);
    expect((await call('GET', `/floors/${f.id}`, auth.general)).statusCode).toBe(200);
    expect((await call('GET', `/floors/${f.id}`, auth.manager)).statusCode).toBe(200);
  });
});
