import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startDemoSmtp, type DemoSmtp } from '../src/services/demo-smtp.ts';

describe("the demo's SMTP receiver (npm start without SMTP_URL)", () => {
  const dirs: string[] = [];
  const running: DemoSmtp[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'demo-smtp-'));
    dirs.push(d);
    return d;
  };
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is on only for DEMO_SMTP without SMTP_URL, at DEMO_SMTP_PORT (default 2525)', () => {
    const DATA_DIR = tempDir();
    expect(loadConfig({ DATA_DIR, DEMO_SMTP: '1' }).demoSmtp).toEqual({ port: 2525 });
    expect(loadConfig({ DATA_DIR, DEMO_SMTP: '1', DEMO_SMTP_PORT: '2600' }).demoSmtp).toEqual({ port: 2600 });
    expect(loadConfig({ DATA_DIR, DEMO_SMTP: '1', SMTP_URL: 'smtp://mail.example:25' }).demoSmtp).toBeNull();
    // Tests and production (no DEMO_SMTP) never run it.
    expect(loadConfig({ DATA_DIR }).demoSmtp).toBeNull();
  });

  it('receives mail really sent over SMTP, writes each to DATA_DIR/mail/<time>-<id>.eml and logs one line', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const smtp = await startDemoSmtp({ dataDir, port: 0, log: (l) => lines.push(l) });
    running.push(smtp);
    expect(smtp.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const transport = nodemailer.createTransport(smtp.url);
    await transport.sendMail({
      from: 'Robot Portal <no-reply@localhost>',
      to: 'ops@demo.example',
      subject: '【ロボットポータル】[緊急] 非常停止',
      text: 'Demo Tower 1F / Demo robot: 非常停止が押されました',
    });
    await transport.sendMail({
      from: 'Robot Portal <no-reply@localhost>',
      to: ['a@demo.example', 'b@demo.example'],
      subject: '[Robot Portal] Low battery',
      text: 'battery at 12 %',
    });
    transport.close();
    expect(lines).toEqual([
      'mail to ops@demo.example: 【ロボットポータル】[緊急] 非常停止',
      'mail to a@demo.example, b@demo.example: [Robot Portal] Low battery',
    ]);
    const files = readdirSync(join(dataDir, 'mail')).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{8}\.eml$/);
    const bodies = files.map((f) => readFileSync(join(dataDir, 'mail', f), 'utf8'));
    expect(bodies.some((b) => /^To: ops@demo\.example/m.test(b))).toBe(true);
    expect(bodies.some((b) => b.includes('battery at 12 %'))).toBe(true);
  });

  it('takes another free port when the configured one is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const smtp = await startDemoSmtp({ dataDir: tempDir(), port: taken, log: () => undefined });
      running.push(smtp);
      expect(smtp.port).not.toBe(taken);
      expect(smtp.port).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
