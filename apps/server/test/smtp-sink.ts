import { createServer, type Server } from 'node:net';

/** A mail as an SMTP server received it: envelope, decoded subject and text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) of a header, decoded. */
function decodeWords(v: string): string {
  return v.replace(/\s*=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** A single-part message (what the portal sends: plain text) split into subject and text. */
function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4).replace(/\r\n\.\./g, '\r\n.');
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  return {
    subject: decodeWords(header('Subject')),
    text: decodeBody(body, header('Content-Transfer-Encoding').toLowerCase()),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (plain SMTP, no authentication, no STARTTLS) that keeps what it
 * receives: the portal's mailer (nodemailer) delivers to it over TCP as it would to a relay.
 */
export async function startSmtpSink(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server: Server = createServer((socket) => {
    socket.setEncoding('latin1');
    let buffer = '';
    let inData = false;
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = Buffer.from(buffer.slice(0, end), 'latin1').toString('latin1');
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push({ from, to, ...parseMessage(raw) });
          reply('250 OK queued');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') reply('250 sink');
        else if (cmd === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 OK');
        } else if (cmd === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 OK');
        } else if (cmd === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (cmd === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        } else if (cmd === 'RSET' || cmd === 'NOOP') reply('250 OK');
        else reply('502 Command not implemented');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
