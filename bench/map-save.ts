/**
 * `node --import tsx bench/map-save.ts`: how long a large map save, a map read and a large map image
 * upload stall the server's event loop (issue 11 item 7). An app on a throw-away SQLite database
 * (the server tests' `createTestApp`, `NODE_ENV=production` so answers are not double-checked) listens
 * on 127.0.0.1; curl, another process, sends an 11 MB map document (400 waypoints, 399 recorded edges
 * of 600 points) and a 10 MB PNG, so only the server's own work runs in this process. The figure is
 * the longest gap between 5 ms timer ticks during each request. Options: `--rounds=N` (default 2).
 * Printed, not asserted: latency moves with other work on the machine.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { crc32, deflateSync } from 'node:zlib';

process.env.NODE_ENV = 'production';
const { createTestApp } = await import('../apps/server/test/helpers.ts');

const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
const ROUNDS = roundsArg ? Math.max(1, Number(roundsArg.slice(9)) || 2) : 2;

/** An RGB PNG of random pixels (incompressible: about width × height × 3 bytes). */
function png(width: number, height: number): Buffer {
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
  const rows = Array.from({ length: height }, () => {
    const r = randomBytes(1 + width * 3);
    r[0] = 0;
    return r;
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const t = await createTestApp();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-map-save-'));
try {
  const auth = (await t.as('orgadmin@demo.example')).authorization;
  const building = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  const created = await t.call('POST', `/buildings/${building.id}/floors`, auth, {
    name: 'Bench',
    type: 'office',
    index: 77,
    resolution: 0.05,
    originX: 0,
    originY: 0,
  });
  const floorId = created.json<{ id: number }>().id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api`;

  /** One request from curl; answers its status while the event loop is watched. */
  const curl = (method: string, url: string, file: string | null, type: string | null) =>
    new Promise<number>((resolve) => {
      const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', method, '-H', `authorization: ${auth}`];
      if (type) args.push('-H', `content-type: ${type}`);
      if (file) args.push('--data-binary', `@${file}`);
      const c = spawn('curl', [...args, url]);
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', () => resolve(Number(out)));
    });
  async function measure(label: string, request: () => Promise<number>) {
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const status = await request();
    const took = performance.now() - started;
    await new Promise((r) => setTimeout(r, 30));
    clearInterval(tick);
    console.log(
      `${label.padEnd(16)} ${status}  took ${took.toFixed(0).padStart(5)} ms, longest event-loop stall ${longest.toFixed(0).padStart(5)} ms`,
    );
  }

  const boundary = '----bench';
  const upload = path.join(tmp, 'upload.bin');
  const image = png(2000, 1700);
  writeFileSync(
    upload,
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="map.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );
  const waypoints = Array.from({ length: 400 }, (_, i) => ({
    id: i + 1,
    name: `P${i + 1}`,
    x: (i % 20) * 4.5 + 1,
    y: Math.floor(i / 20) * 4 + 1,
    theta: 0.5,
    type: 1,
  }));
  const edges = Array.from({ length: 399 }, (_, i) => ({
    id: i + 1,
    from: i + 1,
    to: i + 2,
    oneWay: false,
    speed: 'normal',
    path: Array.from({ length: 600 }, (_, k) => ({
      x: 1 + ((i * 7 + k) % 900) / 10.123457,
      y: 1 + ((i * 3 + k) % 800) / 10.987654,
    })),
  }));
  const document = { waypoints, edges, routes: [], noGoAreas: [], partialMaps: [] };
  const body = path.join(tmp, 'body.json');
  console.log(
    `image ${(image.length / 1e6).toFixed(1)} MB, map document ${(JSON.stringify(document).length / 1e6).toFixed(1)} MB`,
  );
  for (let i = 0; i < ROUNDS; i++) {
    await measure(`image upload ${i + 1}`, () =>
      curl('PUT', `${base}/floors/${floorId}/map-image`, upload, `multipart/form-data; boundary=${boundary}`),
    );
  }
  for (let i = 0; i < ROUNDS; i++) {
    writeFileSync(body, JSON.stringify({ baseRevision: i, document, note: 'bench' }));
    await measure(`map save ${i + 1}`, () => curl('PUT', `${base}/floors/${floorId}/map`, body, 'application/json'));
  }
  await measure('map read', () => curl('GET', `${base}/floors/${floorId}/map`, null, null));
} finally {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
}
