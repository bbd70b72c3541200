import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/time.ts';
import { startEmbeddedBroker, type Broker, type BrokerAuthority } from './broker.ts';
import { createRobotLink, type RobotLinkService } from './link.ts';
import { mqttTransport, type LinkTransport } from './transport.ts';

export type { RobotLink } from './types.ts';
export type { RobotLinkService } from './link.ts';

/** The portal's own broker user; its password is derived from SECRET_KEY, so it needs no storage. */
export const SERVER_MQTT_USERNAME = 'portal-server';
const serverPassword = (secretKey: string) => createHmac('sha256', secretKey).update('mqtt-server').digest('hex');
/** The broker credentials of the portal's own link (every server instance derives the same). */
export const serverMqttCredentials = (secretKey: string) => ({
  username: SERVER_MQTT_USERNAME,
  password: serverPassword(secretKey),
});

const loopbackFor = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
const withoutUserInfo = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

/**
 * Starts the robot link: the embedded broker (default) or nothing (MQTT_URL: an external broker,
 * whose own ACL must confine robots to their topics, see docs/robot-protocol.md), then the portal's
 * MQTT session. Stop with `stop()`.
 */
export async function startRobotLink(opts: {
  config: Pick<Config, 'mqtt' | 'host' | 'secretKey' | 'mqttPublicUrl'> & Partial<Pick<Config, 'robotStateIntervalS'>>;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  clock: Clock;
}): Promise<{ link: RobotLinkService; broker: Broker | null; stop(): Promise<void> }> {
  const { config, log } = opts;
  let broker: Broker | null = null;
  let link: RobotLinkService | null = null;
  const credentials = serverMqttCredentials(config.secretKey);
  // The broker asks the link; the link starts after the broker (it needs its port).
  const authority: BrokerAuthority = {
    authenticate: (u, p) => (link ? link.authority.authenticate(u, p) : Promise.resolve(null)),
    identify: (u) => (link ? link.authority.identify(u) : Promise.resolve(null)),
    unknownClient: (info) => link?.authority.unknownClient(info),
  };
  let transport: LinkTransport;
  let robotBrokerUrl: string;
  if (config.mqtt.kind === 'embedded') {
    const tls = config.mqtt.tls;
    broker = await startEmbeddedBroker({
      port: config.mqtt.port,
      host: config.host,
      log,
      server: credentials,
      authority,
      robotSessionsEnded: (robotId) => link?.sessionEnded(robotId),
      ...(tls
        ? {
            tls: { port: tls.port, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), plain: tls.plain },
          }
        : {}),
    });
    const host = loopbackFor(config.host);
    const hostPart = host.includes(':') ? `[${host}]` : host;
    transport = broker.transport;
    // With TLS, robots are given the mqtts address (set MQTT_PUBLIC_URL to the certificate's host name).
    robotBrokerUrl =
      config.mqttPublicUrl ??
      (broker.tlsPort !== null ? `mqtts://${hostPart}:${broker.tlsPort}` : `mqtt://${hostPart}:${broker.port}`);
  } else {
    transport = mqttTransport(config.mqtt.url, null, log);
    robotBrokerUrl = config.mqttPublicUrl ?? withoutUserInfo(config.mqtt.url);
  }
  const b = broker;
  link = await createRobotLink({
    db: opts.db,
    log,
    clock: opts.clock,
    transport,
    robotBrokerUrl,
    defaultStateIntervalS: config.robotStateIntervalS,
    ...(b ? { disconnectRobot: (id: number) => b.disconnectRobot(id) } : {}),
  });
  const l = link;
  return {
    link: l,
    broker: b,
    async stop() {
      await l.close();
      await b?.close();
    },
  };
}
