import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The embedded MQTT 3.1.1 broker (aedes) of the default set-up. The robot link (VDA 5050) and
 * per-robot credentials arrive with the robot-link capability; until then the broker refuses
 * every client, so nothing can publish into the portal unauthenticated.
 */
export interface Broker {
  port: number;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(port: number, host: string, log: FastifyBaseLogger): Promise<Broker> {
  const aedes = await Aedes.createBroker();
  aedes.authenticate = (client, _username, _password, done) => {
    log.warn({ clientId: client?.id }, 'mqtt client refused: robot credentials are not issued yet');
    const err = Object.assign(new Error('Not authorized'), { returnCode: 5 });
    done(err, false);
  };
  const server: Server = createServer(aedes.handle);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  log.info({ port: actual }, 'embedded MQTT broker listening');
  return {
    port: actual,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => aedes.close(() => ok()));
      }),
  };
}
