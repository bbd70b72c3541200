import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
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
  /** The plain MQTT port (null when only TLS listens). */
  port: number | null;
  /** The MQTT over TLS port (null without TLS). */
  tlsPort: number | null;
  /** The portal's own session, in process: no TCP hop, no second MQTT parse. */
  transport: LinkTransport;
  /**
   * Closes every broker session of a robot and forgets their subscriptions (credentials rotated,
   * robot deleted); a sign-in still in flight for that robot is refused.
   */
  disconnectRobot(robotId: number): void;
  close(): Promise<void>;
}

// MQTT 3.1.1 CONNACK return codes.
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

/**
 * Largest MQTT packet a signed-in client may send. The largest real message is a robot's mapping
 * grid (packages/contract/src/mapping.ts): at most 4000 × 4000 cells of one byte, sent as base64
 * (16 MB → 21.4 MB) inside a small JSON frame; a photo (PHOTO_MAX_BYTES, 4 MB → 5.6 MB base64) is
 * smaller. 24 MiB leaves headroom above the grid; a larger packet closes the connection.
 */
export const MAX_PACKET_BYTES = 24 * 1024 * 1024;
/**
 * Largest first packet (the CONNECT, before anyone is signed in): a client id, a user name, a
 * password and a last will (a `connection` message) fit in far less. Closes the connection past it.
 */
export const MAX_CONNECT_BYTES = 64 * 1024;
/** A connection that has not sent a whole CONNECT by then is closed (aedes' default is 30 s). */
export const CONNECT_TIMEOUT_MS = 10_000;
/** The only topics a robot may retain (VDA 5050: connection, incl. its last will, and factsheet). */
const RETAINED_TOPICS: readonly string[] = ['connection', 'factsheet'];

/**
 * The client ids a robot may use: its own `{manufacturer}-{serialNumber}` (what the simulator uses),
 * or that followed by `:` and a suffix for a further session of its own (serial numbers never hold
 * a `:`). Any other id is refused, so that no robot can take over another robot's session.
 */
export function robotMayUseClientId(id: BrokerIdentity, clientId: string): boolean {
  if (id.role === 'server') return true;
  const own = `${id.manufacturer}-${id.serialNo}`;
  return clientId === own || clientId.startsWith(`${own}:`);
}

/**
 * Watches the bytes a connection sends, packet by packet (MQTT fixed header: a type byte, then the
 * remaining length in up to four 7-bit bytes), and answers false as soon as a packet announces more
 * than its limit: `firstMax` for the first packet (the CONNECT), `max` for later ones. The MQTT
 * parser would otherwise buffer a packet of any announced length before anything checks it.
 */
export function packetSizeGuard(firstMax: number, max: number): (chunk: Buffer) => boolean {
  let phase: 'type' | 'length' | 'body' = 'type';
  let first = true;
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let remaining = 0;
  return (chunk) => {
    let i = 0;
    while (i < chunk.length) {
      if (phase === 'type') {
        phase = 'length';
        length = 0;
        multiplier = 1;
        lengthBytes = 0;
        i++;
      } else if (phase === 'length') {
        const b = chunk[i++]!;
        length += (b & 0x7f) * multiplier;
        multiplier *= 128;
        lengthBytes++;
        if (b & 0x80) {
          if (lengthBytes >= 4) return false; // malformed: at most four length bytes
          continue;
        }
        if (length > (first ? firstMax : max)) return false;
        first = false;
        remaining = length;
        phase = remaining > 0 ? 'body' : 'type';
      } else {
        const take = Math.min(remaining, chunk.length - i);
        i += take;
        remaining -= take;
        if (remaining === 0) phase = 'type';
      }
    }
    return true;
  };
}

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
  /** Told when the last broker session of a robot ends (the link marks it offline). */
  robotSessionsEnded?: (robotId: number) => void;
  /** Defaults: CONNECT_TIMEOUT_MS, MAX_CONNECT_BYTES, MAX_PACKET_BYTES (tests use small ones). */
  connectTimeoutMs?: number;
  maxConnectBytes?: number;
  maxPacketBytes?: number;
  /** MQTT over TLS (PEM certificate chain and key) on its own port; `plain: false` closes plain MQTT. */
  tls?: { port: number; cert: Buffer | string; key: Buffer | string; plain: boolean };
}): Promise<Broker> {
  const { log, authority } = opts;
  // Routing concurrency well above aedes' default of 100: a fleet sends thousands of messages a
  // second, and a backlog in aedes' queue (dequeued with Array.shift) only grows once it is long.
  const aedes = await Aedes.createBroker({
    concurrency: 2_000,
    connectTimeout: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
  });
  /** Every session of each robot (signed in, connecting or connected), and the client ids it used. */
  const robots = new Map<number, Set<Client>>();
  const sessionIds = new Map<number, Set<string>>();
  /** Revocations: a sign-in that started before its robot's last revocation is refused. */
  let revocations = 0;
  const revokedAt = new Map<number, number>();
  /** A robot's session ended; online comes from the broker session: after its last one, it is offline. */
  const dropSession = (robotId: number, client: Client) => {
    const sessions = robots.get(robotId);
    if (!sessions?.delete(client)) return;
    if (sessions.size === 0) opts.robotSessionsEnded?.(robotId);
  };
  const addTo = <T>(map: Map<number, Set<T>>, key: number, v: T) => {
    const set = map.get(key) ?? new Set<T>();
    set.add(v);
    map.set(key, set);
  };

  aedes.authenticate = (client, username, password, done) => {
    const user = username ?? '';
    const pass = password ? password.toString('utf8') : '';
    const refuse = (code: number) => done(Object.assign(new Error('Not authorized'), { returnCode: code }), false);
    if (user === opts.server.username) {
      if (pass !== opts.server.password) return refuse(BAD_USERNAME_OR_PASSWORD);
      identities.set(client, { role: 'server' });
      return done(null, true);
    }
    // A robot's sessions revoked while its sign-in was checked (the password may have been read just
    // before a rotation): check it again, against the registry as it is now.
    const check = async (): Promise<BrokerIdentity | null> => {
      const started = revocations;
      const id = await authority.authenticate(user, pass);
      const revoked = id?.role === 'robot' && (revokedAt.get(id.robotId) ?? -1) > started;
      return revoked ? authority.authenticate(user, pass) : id;
    };
    check()
      .then((id) => {
        if (!id) {
          const socket = (client as unknown as { conn?: Socket }).conn;
          // Only a client that names itself awaits registration; one without a user name is just refused.
          if (user) authority.unknownClient({ username: user, clientId: client.id, ip: socket?.remoteAddress ?? '' });
          log.warn({ clientId: client.id, username: user }, 'mqtt client refused: unknown credentials');
          return refuse(user ? BAD_USERNAME_OR_PASSWORD : NOT_AUTHORIZED);
        }
        if (!robotMayUseClientId(id, client.id)) {
          log.warn({ clientId: client.id, username: user }, 'mqtt client refused: not the robot’s own client id');
          return refuse(NOT_AUTHORIZED);
        }
        identities.set(client, id);
        if (id.role === 'robot') {
          addTo(robots, id.robotId, client);
          addTo(sessionIds, id.robotId, client.id);
          const socket = (client as unknown as { conn?: Socket }).conn;
          socket?.once('close', () => dropSession(id.robotId, client));
        }
        done(null, true);
      })
      .catch((err: unknown) => {
        log.error({ err, clientId: client.id }, 'mqtt authentication failed');
        refuse(NOT_AUTHORIZED);
      });
  };

  aedes.authorizePublish = (client, packet, done) => {
    const id = client ? identities.get(client) : undefined;
    if (id && robotMayPublish(id, packet.topic)) {
      // Retained messages stay in the broker's memory: only the topics VDA 5050 retains keep them.
      if (packet.retain && !RETAINED_TOPICS.includes(packet.topic.split('/')[4] ?? '')) packet.retain = false;
      return done(null);
    }
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
  aedes.on('clientDisconnect', (client) => {
    const id = identities.get(client);
    if (id?.role === 'robot') dropSession(id.robotId, client);
  });

  const maxConnect = opts.maxConnectBytes ?? MAX_CONNECT_BYTES;
  const maxPacket = opts.maxPacketBytes ?? MAX_PACKET_BYTES;
  // The same handling for plain and TLS connections (a TLS socket is a net.Socket too).
  const accept = (socket: Socket) => {
    aedes.handle(socket);
    // After aedes' 'readable' listener: 'data' then fires on each of its reads, before the parse.
    const fits = packetSizeGuard(maxConnect, maxPacket);
    socket.on('data', (chunk: Buffer) => {
      if (fits(chunk) || socket.destroyed) return;
      log.warn({ ip: socket.remoteAddress }, 'mqtt connection closed: packet larger than allowed');
      socket.destroy();
    });
  };
  const listen = async (server: Server, port: number): Promise<number> => {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, opts.host, () => ok());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  };
  const servers: Server[] = [];
  let actual: number | null = null;
  let tlsPort: number | null = null;
  if (!opts.tls || opts.tls.plain) {
    const server = createServer(accept);
    servers.push(server);
    actual = await listen(server, opts.port);
    log.info({ port: actual }, 'embedded MQTT broker listening');
  }
  if (opts.tls) {
    // A TLS handshake that never completes is closed like a CONNECT that never comes.
    const server = createTlsServer(
      { cert: opts.tls.cert, key: opts.tls.key, handshakeTimeout: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS },
      accept,
    );
    servers.push(server);
    tlsPort = await listen(server, opts.tls.port);
    log.info({ port: tlsPort }, 'embedded MQTT broker listening for MQTT over TLS');
  }
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
    tlsPort,
    transport,
    disconnectRobot(robotId) {
      revokedAt.set(robotId, ++revocations);
      const clients = [...(robots.get(robotId) ?? [])];
      const ids = [...(sessionIds.get(robotId) ?? [])];
      robots.delete(robotId);
      sessionIds.delete(robotId);
      // A session kept across connections (clean session off) would keep its subscriptions: drop them.
      const { persistence } = aedes as unknown as {
        persistence: { cleanSubscriptions(client: { id: string }): Promise<void> };
      };
      const forget = () => {
        for (const id of ids) {
          void persistence
            .cleanSubscriptions({ id })
            .catch((err: unknown) => log.error({ err }, 'mqtt: could not forget a session'));
        }
      };
      let open = clients.length;
      if (open === 0) forget();
      for (const c of clients) c.close(() => --open === 0 && forget());
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const set of robots.values()) for (const c of set) c.close();
        let open = servers.length;
        for (const server of servers) server.close(() => --open === 0 && aedes.close(() => ok()));
      }),
  };
}
