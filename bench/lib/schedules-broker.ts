/**
 * The shared MQTT broker of `npm run bench:schedules` with two servers (docs/deployment.md "Several
 * servers": an external broker, `MQTT_URL`, shared by all servers). A plain aedes broker on 127.0.0.1
 * that lets every client in (no sign-in or topic checks: the bench measures the schedule dispatcher,
 * not a broker's access control; a deployment uses Mosquitto/EMQX with the portal's auth hooks).
 * Loaded with bench/lib/schedules-wire-probe.ts, so orders written to robots' sockets are timed here.
 *
 * Usage: node --import tsx --import ./bench/lib/schedules-wire-probe.ts bench/lib/schedules-broker.ts <port>
 * Prints `listening <port>` once ready; stops on SIGTERM.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) throw new Error('usage: schedules-broker.ts <port>');

// The embedded broker's routing concurrency (apps/server/src/modules/robot-link/broker.ts).
const aedes = await Aedes.createBroker({ concurrency: 2_000 });
const server = createServer(aedes.handle);
server.listen(port, '127.0.0.1', () => console.log(`listening ${port}`));

process.on('SIGTERM', () => {
  server.close();
  aedes.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
});
