import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { LinkTransport } from './transport.ts';
import { CLUSTER_TOPICS } from './cluster-bus.ts';
import {
  MAPPING_TOPIC,
  parseVdaTopic,
  PHOTO_TOPIC,
  ROBOT_PUBLISHES,
  ROBOT_SUBSCRIBES,
  TELEOP_REPLY_TOPIC,
  TELEOP_TOPIC,
  VDA_INTERFACE_NAME,
  VDA_MAJOR,
} from '@portal/contract';

/** Who a connected MQTT client is: the portal's own link, or one registered robot. */
export type BrokerIdentity =
  { role: 'server' } | { role: 'robot'; robotId: number; manufacturer: string; serialNo: string };

/** The broker asks the portal who a client is; the portal answers from its robot registry. */
export interface BrokerAuthority {
  /** A registered robot's identity when the user name and password match, else null. */
  authenticate(username: string, password: string): Promise<BrokerIdentity | null>;
  /** Who a signed-in user name is (for an external broker's ACL checks), or null. */
  identify(username: string): Promise<BrokerIdentity | null>;
  /** A client the registry does not know tried to connect ("awaiting registration"). */
  unknownClient(info: { username: string; clientId: string; ip: string }): void;
}

export interface Broker {
  port: number;
  /** The portal's own session, in process: no TCP hop, no second MQTT parse. */
  transport: LinkTransport;
  /** Closes the broker session of a robot (credentials rotated, robot deleted). */
  disconnectRobot(robotId: number): void;
  close(): Promise<void>;
}

// MQTT 3.1.1 CONNACK return codes.
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

const identities = new WeakMap<Client, BrokerIdentity>();
/** The servers' own topics (registry changes, teleoperation lock claims); robots never see them. */
const INTERNAL_TOPICS: readonly string[] = CLUSTER_TOPICS;

/** Custom robot → portal topics (docs/robot-protocol.md section 6). */
const CUSTOM_ROBOT_PUBLISHES: readonly string[] = [MAPPING_TOPIC, TELEOP_REPLY_TOPIC, PHOTO_TOPIC];
/** Custom portal → robot topics: the robot subscribes, the portal publishes. */
const CUSTOM_ROBOT_SUBSCRIBES: readonly string[] = [TELEOP_TOPIC];

/** A robot may publish only its own state, visualization, connection, factsheet, mapping, teleopReply and photo. */
export function robotMayPublish(id: BrokerIdentity, topic: string): boolean {
  if (INTERNAL_TOPICS.includes(topic)) return id.role === 'server';
  const parts = topic.split('/');
  const custom = parts.length === 5 && parts[0] === VDA_INTERFACE_NAME && parts[1] === VDA_MAJOR;
  if (id.role === 'robot' && custom && CUSTOM_ROBOT_PUBLISHES.includes(parts[4]!)) {
    return parts[2] === id.manufacturer && parts[3] === id.serialNo;
  }
  if (id.role === 'server' && custom && CUSTOM_ROBOT_SUBSCRIBES.includes(parts[4]!)) {
    return !parts[2]!.includes('+') && !parts[2]!.includes('#') && !parts[3]!.includes('+') && !parts[3]!.includes('#');
  }
  const t = parseVdaTopic(topic);
  if (!t) return false;
  if (id.role === 'server') return (ROBOT_SUBSCRIBES as readonly string[]).includes(t.topic);
  return t.manufacturer === id.manufacturer && t.serialNumber === id.serialNo && ROBOT_PUBLISHES.includes(t.topic);
}

/**
 * A robot may subscribe only to its own order and instantActions topics; the portal's link to the
 * robot-published topics of every robot (wildcards in the robot levels only).
 */
export function robotMaySubscribe(id: BrokerIdentity, filter: string): boolean {
  if (INTERNAL_TOPICS.includes(filter)) return id.role === 'server';
  const parts = filter.split('/');
  if (parts.length !== 5 || parts[0] !== VDA_INTERFACE_NAME || parts[1] !== VDA_MAJOR) return false;
  const [, , manufacturer, serial, topic] = parts as [string, string, string, string, string];
  if (id.role === 'server') {
    return (
      ((ROBOT_PUBLISHES as readonly string[]).includes(topic) || CUSTOM_ROBOT_PUBLISHES.includes(topic)) &&
      !manufacturer.includes('#') &&
      !serial.includes('#')
    );
  }
  return (
    manufacturer === id.manufacturer &&
    serial === id.serialNo &&
    (ROBOT_SUBSCRIBES.includes(topic as never) || CUSTOM_ROBOT_SUBSCRIBES.includes(topic))
  );
}

/**
 * The embedded MQTT 3.1.1 broker (aedes) of the default set-up. Every client signs in: the portal's
 * own link with the server credentials, robots with the credentials the portal issued them. Each
 * publish and subscribe is checked against the client's own topics.
 */
export async function startEmbeddedBroker(opts: {
  port: number;
  host: string;
  log: FastifyBaseLogger;
  server: { username: string; password: string };
  authority: BrokerAuthority;
}): Promise<Broker> {
  const { log, authority } = opts;
  // Routing concurrency well above aedes' default of 100: a fleet sends thousands of messages a
  // second, and a backlog in aedes' queue (dequeued with Array.shift) only grows once it is long.
  const aedes = await Aedes.createBroker({ concurrency: 2_000 });
  const robots = new Map<number, Client>();

  aedes.authenticate = (client, username, password, done) => {
    const user = username ?? '';
    const pass = password ? password.toString('utf8') : '';
    const refuse = (code: number) => done(Object.assign(new Error('Not authorized'), { returnCode: code }), false);
    if (user === opts.server.username) {
      if (pass !== opts.server.password) return refuse(BAD_USERNAME_OR_PASSWORD);
      identities.set(client, { role: 'server' });
      return done(null, true);
    }
    authority
      .authenticate(user, pass)
      .then((id) => {
        if (!id) {
          const socket = (client as unknown as { conn?: Socket }).conn;
          authority.unknownClient({ username: user, clientId: client.id, ip: socket?.remoteAddress ?? '' });
          log.warn({ clientId: client.id, username: user }, 'mqtt client refused: unknown credentials');
          return refuse(user ? BAD_USERNAME_OR_PASSWORD : NOT_AUTHORIZED);
        }
        identities.set(client, id);
        done(null, true);
      })
      .catch((err: unknown) => {
        log.error({ err, clientId: client.id }, 'mqtt authentication failed');
        refuse(NOT_AUTHORIZED);
      });
  };

  aedes.authorizePublish = (client, packet, done) => {
    const id = client ? identities.get(client) : undefined;
    if (id && robotMayPublish(id, packet.topic)) return done(null);
    log.warn({ clientId: client?.id, topic: packet.topic }, 'mqtt publish refused: not the client’s topic');
    done(new Error('publish not allowed'));
  };

  aedes.authorizeSubscribe = (client, sub, done) => {
    const id = client ? identities.get(client) : undefined;
    if (id && robotMaySubscribe(id, sub.topic)) return done(null, sub);
    log.warn({ clientId: client?.id, topic: sub.topic }, 'mqtt subscribe refused: not the client’s topic');
    done(null, null); // a negative SUBACK (0x80)
  };

  // Retained messages go to whoever may subscribe; nothing else to filter there.
  aedes.on('client', (client) => {
    const id = identities.get(client);
    if (id?.role === 'robot') {
      // A robot that connects again replaces its previous session.
      robots.set(id.robotId, client);
    }
  });
  aedes.on('clientDisconnect', (client) => {
    const id = identities.get(client);
    if (id?.role === 'robot' && robots.get(id.robotId) === client) robots.delete(id.robotId);
  });

  const server: Server = createServer(aedes.handle);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port, opts.host, () => ok());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : opts.port;
  log.info({ port: actual }, 'embedded MQTT broker listening');
  const transport: LinkTransport = {
    async subscribe(filters, onMessage) {
      const deliver = (packet: { topic: string; payload: Buffer | string }, done: () => void) => {
        onMessage(packet.topic, typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload);
        done();
      };
      await Promise.all(filters.map((f) => new Promise<void>((ok) => aedes.subscribe(f, deliver, ok))));
    },
    publish: (topic, payload, qos) =>
      new Promise((ok, fail) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (err?: Error) => (err ? fail(err) : ok()),
        ),
      ),
    close: async () => undefined,
  };
  return {
    port: actual,
    transport,
    disconnectRobot(robotId) {
      robots.get(robotId)?.close();
      robots.delete(robotId);
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const c of robots.values()) c.close();
        server.close(() => aedes.close(() => ok()));
      }),
  };
}
