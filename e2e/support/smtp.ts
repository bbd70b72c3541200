import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** A mail as the local SMTP server received it: envelope, decoded subject and text. */
export interface ReceivedMail {
  /** Order of arrival (1, 2, ...). */
  seq: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** Adjacent RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) decoded together. */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([bq])\?([^?]*)\?=/gi;
  let out = '';
  let last = 0;
  let pending: Buffer[] = [];
  const flush = () => {
    out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (let m = word.exec(value); m; m = word.exec(value)) {
    const between = value.slice(last, m.index);
    // White space between two encoded words is not part of the text (RFC 2047 section 6.2).
    if (pending.length === 0 || between.trim() !== '') {
      flush();
      out += between;
    }
    const data = m[3]!;
    pending.push(
      m[2]!.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ),
    );
    last = m.index + m[0].length;
  }
  flush();
  return out + value.slice(last);
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return Buffer.from(body, 'latin1').toString('utf8');
}

/** A single-part plain-text message (what the portal sends) split into its subject and text. */
export function parseMail(raw: Buffer): { subject: string; text: string } {
  const source = raw.toString('latin1');
  const split = source.search(/\r?\n\r?\n/);
  const head = (split < 0 ? source : source.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  const body = split < 0 ? '' : source.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) =>
    head
      .split(/\r?\n/)
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  return {
    subject: decodeWords(header('Subject')),
    text: decodeBody(body, header('Content-Transfer-Encoding').toLowerCase()).replace(/\r\n/g, '\n'),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package: plain SMTP, no authentication, no
 * STARTTLS) for the e2e server's SMTP_URL. Each mail it receives is written to `dir` as
 * `<seq>.json` (a ReceivedMail) and `<seq>.eml` (as received), so the tests, in other processes,
 * read what was really delivered.
 */
export async function startSmtpReceiver(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    banner: 'portal e2e',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const mail: ReceivedMail = {
          seq: ++seq,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
        };
        const name = String(mail.seq).padStart(6, '0');
        writeFileSync(path.join(dir, `${name}.eml`), raw);
        // The JSON last, renamed into place: a reader that sees it sees a whole mail.
        writeFileSync(path.join(dir, `${name}.json.tmp`), JSON.stringify(mail, null, 2));
        renameSync(path.join(dir, `${name}.json.tmp`), path.join(dir, `${name}.json`));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A broken connection must not end the process the tests run in.
  server.on('error', () => undefined);
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every mail the receiver got so far, in order of arrival. */
export function receivedMails(dir: string): ReceivedMail[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ReceivedMail);
}
