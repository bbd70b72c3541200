/**
 * The broker-side clock of `npm run bench:flows`, loaded into the server process with `--import`
 * (always; it changes no behaviour and only watches). The figure is "robot reports a node
 * reached → the next order update is on the wire": both ends are messages passing the embedded
 * broker, so they are timed there, on the server's clock, as aedes routes them (every PUBLISH goes
 * through its mqemitter's `emit`):
 *
 * - a robot's `.../state` message, by its headerId, when the broker has read it off the robot's socket
 *   (before the server's robot link sees it);
 * - an order (update) to a robot, by orderId and orderUpdateId, when the server has published it to
 *   the broker (`O`), and when the broker has written it to the robot's socket (`W`: on the wire).
 *
 * The simulator names, for each transition, the state message that showed the node reached with its
 * actions done and the order update that followed (bench/lib/flows-sim.ts); bench/flows.ts joins the
 * two. Lines are appended to FLOWS_WIRE_FILE every 500 ms: `S <prefix> <headerId> <ms>`,
 * `O <prefix> <orderId> <orderUpdateId> <ms>` and `W ...` as `O` (ms: performance.now() of the server).
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

interface Packet {
  topic?: string;
  payload?: Buffer | string;
}

const file = process.env.FLOWS_WIRE_FILE;
if (file) {
  // The same CommonJS module instance aedes imports (hoisted in the workspace).
  const MQEmitter = createRequire(import.meta.url)('mqemitter') as {
    prototype: { emit: (this: unknown, packet: Packet, ...rest: unknown[]) => unknown };
  };
  let lines: string[] = [];
  const head = (p: Buffer | string) => (typeof p === 'string' ? p.slice(0, 400) : p.toString('latin1', 0, 400));
  const original = MQEmitter.prototype.emit;
  MQEmitter.prototype.emit = function (this: unknown, packet: Packet, ...rest: unknown[]) {
    const topic = packet?.topic;
    if (topic && packet.payload !== undefined) {
      if (topic.endsWith('/state')) {
        const m = /"headerId":(\d+)/.exec(head(packet.payload));
        if (m) lines.push(`S ${topic.slice(0, -6)} ${m[1]} ${performance.now()}`);
      } else if (topic.endsWith('/order')) {
        const h = head(packet.payload);
        const id = /"orderId":"([^"]+)"/.exec(h);
        const update = /"orderUpdateId":(\d+)/.exec(h);
        if (id && update) lines.push(`O ${topic.slice(0, -6)} ${id[1]} ${update[1]} ${performance.now()}`);
      }
    }
    return original.call(this, packet, ...rest);
  };
  // The broker writes each packet to a robot's socket with mqtt-packet's writeToStream (aedes
  // lib/write.js calls it as a property, so wrapping it here is seen): an order (update) written to
  // the robot's connection is on the wire.
  const mqttPacket = createRequire(import.meta.url)('mqtt-packet') as {
    writeToStream: (packet: Packet & { cmd?: string }, stream: unknown, opts?: unknown) => boolean;
  };
  const writeToStream = mqttPacket.writeToStream;
  mqttPacket.writeToStream = function (packet, stream, opts) {
    const topic = packet?.topic;
    const result = writeToStream.call(this, packet, stream, opts);
    if (packet?.cmd === 'publish' && topic?.endsWith('/order') && packet.payload !== undefined) {
      const h = head(packet.payload);
      const id = /"orderId":"([^"]+)"/.exec(h);
      const update = /"orderUpdateId":(\d+)/.exec(h);
      if (id && update) lines.push(`W ${topic.slice(0, -6)} ${id[1]} ${update[1]} ${performance.now()}`);
    }
    return result;
  };
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join('\n') + '\n';
    lines = [];
    appendFileSync(file, text);
  };
  setInterval(flush, 500).unref();
  process.on('exit', flush);
}
