import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';

/** How the link reaches the broker: in process (embedded aedes) or as an MQTT client (MQTT_URL). */
export interface LinkTransport {
  /** Subscribes to the filters; resolves once the subscription is in place. */
  subscribe(filters: string[], onMessage: (topic: string, payload: Buffer) => void): Promise<void>;
  publish(topic: string, payload: string, qos: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

/** An MQTT 3.1.1 client session (external broker, or a second server on the same broker). */
export function mqttTransport(
  url: string,
  credentials: { username: string; password: string } | null,
  log: FastifyBaseLogger,
): LinkTransport {
  const client = mqtt.connect(url, {
    protocolVersion: 4,
    clientId: `portal-${randomUUID()}`,
    clean: true,
    reconnectPeriod: 1_000,
    connectTimeout: 10_000,
    ...(credentials ?? {}),
  });
  client.on('error', (err) => log.warn({ err: err.message }, 'robot link: MQTT error'));
  client.on('connect', () => log.info({ broker: url.replace(/\/\/[^@]*@/, '//') }, 'robot link connected'));
  return {
    subscribe(filters, onMessage) {
      client.on('message', (topic, payload) => onMessage(topic, payload));
      // Subscribed again on every (re)connect: the session is clean.
      return new Promise((ok) => {
        const sub = () =>
          client.subscribe(filters, { qos: 1 }, (err) => {
            if (err) log.error({ err }, 'robot link: subscribe failed');
            else ok();
          });
        client.on('connect', sub);
        if (client.connected) sub();
      });
    },
    publish: (topic, payload, qos) =>
      new Promise((ok, fail) => client.publish(topic, payload, { qos }, (err) => (err ? fail(err) : ok()))),
    close: () => client.endAsync(true),
  };
}
