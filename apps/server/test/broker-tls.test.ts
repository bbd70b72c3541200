import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vdaTopic, type CreatedRobot } from '@portal/contract';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createTestApp, registerDemoRobot, until, type TestApp } from './helpers.ts';

/** A self-signed certificate for 127.0.0.1 and localhost, made for this test run. */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'mqtt.crt');
  const key = join(dir, 'mqtt.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

const connect = (url: string, opts: mqtt.IClientOptions): Promise<mqtt.MqttClient> =>
  new Promise((ok, fail) => {
    const c = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5_000, ...opts });
    c.once('connect', () => ok(c));
    c.once('error', (err) => {
      c.end(true);
      fail(err);
    });
  });

describe('embedded broker: MQTT over TLS', () => {
  let dir: string;
  let files: { cert: string; key: string };
  let t: TestApp;
  let robot: CreatedRobot;
  const clients: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-tls-'));
    files = selfSigned(dir);
    // TLS only: plain MQTT is off.
    t = await createTestApp({
      MQTT_TLS_CERT: files.cert,
      MQTT_TLS_KEY: files.key,
      MQTT_TLS_PORT: '0',
      MQTT_PLAIN: '0',
    });
    robot = (await registerDemoRobot(t, { serialNo: 'TLS-1', name: 'TLS robot', model: 'mini' })).created;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives robots the mqtts address, and a robot trusting the certificate signs in and is heard', async () => {
    const c = robot.credentials;
    expect(c.mqttUrl).toMatch(/^mqtts:\/\/127\.0\.0\.1:\d+$/);
    const client = await connect(c.mqttUrl, {
      username: c.username,
      password: c.password,
      clientId: `${c.manufacturer}-${c.serialNumber}`,
      ca: readFileSync(files.cert),
    });
    clients.push(client);
    const connection = { headerId: 1, timestamp: new Date().toISOString(), version: '2.0.0' };
    await client.publishAsync(
      vdaTopic(c.manufacturer, c.serialNumber, 'connection'),
      JSON.stringify({
        ...connection,
        manufacturer: c.manufacturer,
        serialNumber: c.serialNumber,
        connectionState: 'ONLINE',
      }),
      { qos: 1, retain: true },
    );
    await until(() => t.link.details(robot.robot.id)?.online || null);
    // The credentials still apply over TLS: a wrong password is refused.
    await expect(
      connect(c.mqttUrl, { username: c.username, password: 'wrong', clientId: 'x', ca: readFileSync(files.cert) }),
    ).rejects.toMatchObject({ code: 4 });
  });

  it('refuses a client that does not trust the certificate (no silent downgrade)', async () => {
    const c = robot.credentials;
    await expect(
      connect(c.mqttUrl, {
        username: c.username,
        password: c.password,
        clientId: `${c.manufacturer}-${c.serialNumber}`,
      }),
    ).rejects.toThrow(/self[- ]signed|certificate/i);
  });

  it('reads the certificate settings strictly: both files, existing, embedded broker only', () => {
    const base = { DATA_DIR: dir, SECRET_KEY: 'test-secret-key-test-secret-key-0123456789' };
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ MQTT_TLS_CERT: files.cert })).toEqual([
      'MQTT_TLS_KEY: MQTT_TLS_CERT and MQTT_TLS_KEY must be set together',
    ]);
    expect(problems({ MQTT_TLS_CERT: files.cert, MQTT_TLS_KEY: join(dir, 'missing.key') })).toEqual([
      `MQTT_TLS_KEY: no such file: ${join(dir, 'missing.key')}`,
    ]);
    const config = loadConfig({ ...base, MQTT_TLS_CERT: files.cert, MQTT_TLS_KEY: files.key });
    expect(config.mqtt).toMatchObject({ kind: 'embedded', port: 1883, tls: { port: 8883, plain: true } });
  });
});
