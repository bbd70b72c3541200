import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** The first header named `name` of a raw message, unfolded (encoded words left as they are). */
function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const m = new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return m ? m[1]!.replace(/\r?\n[ \t]+/g, ' ').trim() : '';
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) decoded, for the log line. */
export function decodeWords(v: string): string {
  return v.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*(?==\?)?/g, (_all, _cs: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

export interface DemoSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  /** Where each received mail is written (`<time>-<id>.eml`). */
  dir: string;
  close(): Promise<void>;
}

/**
 * The demo's own mail server (docs/deployment.md "Mail in the demo"): `npm start` without SMTP_URL
 * runs it on 127.0.0.1 so that notifications and account mails are really delivered. Every mail
 * received is written to `<dataDir>/mail/<time>-<id>.eml` and announced by one log line. Only for
 * the demo: it accepts any sender and recipient without authentication, on loopback only.
 */
export async function startDemoSmtp(opts: {
  dataDir: string;
  /** 0: any free port. */
  port: number;
  log: (line: string) => void;
}): Promise<DemoSmtp> {
  const dir = join(opts.dataDir, 'mail');
  mkdirSync(dir, { recursive: true });
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      banner: 'Robot Portal demo mail server',
      size: 10 * 1024 * 1024,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const time = new Date().toISOString().replace(/[:.]/g, '-');
            const id = randomBytes(4).toString('hex');
            writeFileSync(join(dir, `${time}-${id}.eml`), raw);
            const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
            opts.log(`mail to ${to}: ${decodeWords(header(raw.toString('utf8'), 'Subject'))}`);
            callback();
          } catch (err) {
            callback(err as Error);
          }
        });
      },
    });
  const listen = (port: number) =>
    new Promise<SMTPServer>((resolve, reject) => {
      const server = make();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  // The configured port, or any free one when it is taken (another portal's demo, a local mail server).
  const server = await listen(opts.port).catch((err: unknown) => {
    if (opts.port === 0) throw err;
    return listen(0);
  });
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
