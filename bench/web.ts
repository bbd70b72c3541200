/**
 * bench:web — the gzip size of the JS and CSS the login route loads. Serves the built web app
 * (apps/web/dist) on a free loopback port, opens /auth/login in the system Chromium, records every
 * script and stylesheet the page fetched (lazy chunks included), and gzips each one.
 * Goal: under 200 KB in all.
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { writeResults } from './lib/results.ts';

const GOAL_KB = 200;
const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
if (!existsSync(join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build:web` first (npm run bench:web does).');
  process.exit(1);
}

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// The app is served the way the portal serves it: files, else index.html (history mode); the API
// answers 401 as it does to a visitor who is not signed in.
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
  if (path.startsWith('/api/')) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Please log in' } }));
    return;
  }
  const file = normalize(join(dist, path));
  const target = file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : join(dist, 'index.html');
  res.writeHead(200, { 'content-type': types[extname(target)] ?? 'application/octet-stream' });
  res.end(readFileSync(target));
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  const assets = new Map<string, { kind: 'js' | 'css'; raw: number; gzip: number }>();
  page.on('response', async (response) => {
    const url = new URL(response.url());
    const kind = url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : null;
    if (!kind || url.port !== String(port)) return;
    const body = await response.body().catch(() => null);
    if (body) assets.set(url.pathname, { kind, raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
  });
  await page.goto(`http://127.0.0.1:${port}/auth/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button').first().waitFor({ timeout: 30_000 });

  const sum = (kind: 'js' | 'css' | null, field: 'raw' | 'gzip') =>
    [...assets.values()].filter((a) => kind === null || a.kind === kind).reduce((n, a) => n + a[field], 0) / 1024;
  const total = sum(null, 'gzip');
  console.log('\nFiles the login route loaded:');
  console.table(
    [...assets.entries()].map(([path, a]) => ({
      file: path,
      kind: a.kind,
      'raw KB': +(a.raw / 1024).toFixed(1),
      'gzip KB': +(a.gzip / 1024).toFixed(1),
    })),
  );
  writeResults('web', [
    { name: 'login route JS (gzip)', value: sum('js', 'gzip'), unit: 'KB' },
    { name: 'login route CSS (gzip)', value: sum('css', 'gzip'), unit: 'KB' },
    { name: 'login route JS + CSS (gzip)', value: total, unit: 'KB', goal: `< ${GOAL_KB} KB`, met: total < GOAL_KB },
    { name: 'login route JS + CSS (raw)', value: sum(null, 'raw'), unit: 'KB' },
    { name: 'files loaded', value: assets.size, unit: 'files' },
  ]);
} finally {
  await browser.close();
  server.close();
}
