/**
 * The wire clock of `npm run bench:schedules`, loaded with `--import` into whichever process runs the
 * MQTT broker the robots use: the server (embedded aedes broker, one server) or
 * bench/lib/schedules-broker.ts (the shared broker of two servers). It changes no behaviour and only
 * watches: every order (or order update) the broker writes to a robot's socket is one line
 * `W <topic prefix> <orderId> <orderUpdateId> <ms>`, ms being Date.now() (wall clock, to compare with
 * an occurrence's due time; the bench and the broker run on one machine, one clock).
 *
 * Lines are written to SCHEDULES_WIRE_FILE synchronously (one write per order: the bench kills a server
 * with SIGKILL, and a buffered line would be lost with it). aedes writes each packet with mqtt-packet's
 * writeToStream, called as a property (aedes lib/write.js), so wrapping it here is seen (as in
 * bench/lib/flows-wire-probe.ts).
 */
import { openSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';

interface Packet {
  cmd?: string;
  topic?: string;
  payload?: Buffer | string;
}

const file = process.env.SCHEDULES_WIRE_FILE;
if (file) {
  const fd = openSync(file, 'a');
  const head = (p: Buffer | string) => (typeof p === 'string' ? p.slice(0, 400) : p.toString('latin1', 0, 400));
  // The same CommonJS module instance aedes imports (hoisted in the workspace).
  const mqttPacket = createRequire(import.meta.url)('mqtt-packet') as {
    writeToStream: (packet: Packet, stream: unknown, opts?: unknown) => boolean;
  };
  const writeToStream = mqttPacket.writeToStream;
  mqttPacket.writeToStream = function (packet, stream, opts) {
    const result = writeToStream.call(this, packet, stream, opts);
    const topic = packet?.topic;
    if (packet?.cmd === 'publish' && topic?.endsWith('/order') && packet.payload !== undefined) {
      const at = Date.now();
      const h = head(packet.payload);
      const id = /"orderId":"([^"]+)"/.exec(h);
      const update = /"orderUpdateId":(\d+)/.exec(h);
      if (id && update) writeSync(fd, `W ${topic.slice(0, -6)} ${id[1]} ${update[1]} ${at}\n`);
    }
    return result;
  };
}
