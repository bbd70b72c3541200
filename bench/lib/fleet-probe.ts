/**
 * Diagnostic probe of `npm run bench:fleet` (FLEET_SERVER_PROBE=1): loaded into the server process
 * with `--import`, it changes no behaviour and only watches. Every 500 ms it appends one JSON line to
 * FLEET_PROBE_FILE: the embedded broker's routing queue (aedes routes every PUBLISH through an
 * mqemitter with a bounded number in flight; the rest wait in its queue), messages routed, the event
 * loop's utilization and delay.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

interface Emitter {
  length: number;
  current: number;
  concurrency: number;
}

const file = process.env.FLEET_PROBE_FILE;
if (file) {
  // The same CommonJS module instance aedes imports (hoisted in the workspace).
  const MQEmitter = createRequire(import.meta.url)('mqemitter') as {
    prototype: { emit: (this: Emitter, ...args: unknown[]) => unknown };
  };
  const emitters = new Set<Emitter>();
  let routed = 0;
  const original = MQEmitter.prototype.emit;
  MQEmitter.prototype.emit = function (this: Emitter, ...args: unknown[]) {
    emitters.add(this);
    routed++;
    return original.apply(this, args);
  };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const queued = [...emitters].reduce((n, e) => n + e.length, 0);
    const inFlight = [...emitters].reduce((n, e) => n + e.current, 0);
    const line = {
      at: Date.now(),
      queued,
      inFlight,
      concurrency: [...emitters].map((e) => e.concurrency),
      routed,
      elu: performance.eventLoopUtilization(now, elu).utilization,
      delayP99Ms: delay.percentile(99) / 1e6,
      rssMb: process.memoryUsage().rss / 2 ** 20,
    };
    elu = now;
    routed = 0;
    delay.reset();
    appendFileSync(file, JSON.stringify(line) + '\n');
  }, 500);
  timer.unref();
}
