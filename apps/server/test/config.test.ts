import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'portal-config-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has the documented defaults, SQLite in DATA_DIR and a generated secret key kept across starts', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.port).toBe(8080);
    expect(c.apiBase).toBe('/api');
    expect(c.database).toEqual({ kind: 'sqlite', file: join(dir, 'portal.db') });
    expect(c.mqtt).toEqual({ kind: 'embedded', port: 1883 });
    expect(c.smtpUrl).toBeNull();
    expect(c.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toBe(c.secretKey);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(c.secretKey);
    expect(c.robotStateIntervalS).toBe(30);
  });

  it('takes the state interval of robots without one in their factsheet (ROBOT_STATE_INTERVAL_S, whole seconds)', () => {
    expect(loadConfig({ DATA_DIR: tmp(), ROBOT_STATE_INTERVAL_S: '10' }).robotStateIntervalS).toBe(10);
    for (const bad of ['0', '1.5', 'often', '3601'])
      expect(() => loadConfig({ DATA_DIR: tmp(), ROBOT_STATE_INTERVAL_S: bad }), bad).toThrow(/ROBOT_STATE_INTERVAL_S/);
  });

  it('runs the simulated building systems exactly when simulated robots run, unless SIMULATED_BUILDING_SYSTEMS says', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).simulatedBuildingSystems).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), SIMULATED_ROBOTS: '0' }).simulatedBuildingSystems).toBe(false);
    expect(
      loadConfig({ DATA_DIR: tmp(), SIMULATED_ROBOTS: '0', SIMULATED_BUILDING_SYSTEMS: '1' }).simulatedBuildingSystems,
    ).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), SIMULATED_BUILDING_SYSTEMS: '0' }).simulatedBuildingSystems).toBe(false);
    expect(() => loadConfig({ DATA_DIR: tmp(), SIMULATED_BUILDING_SYSTEMS: 'maybe' })).toThrow(
      /SIMULATED_BUILDING_SYSTEMS/,
    );
  });

  it('chooses PostgreSQL for postgres:// and an external broker for MQTT_URL', () => {
    const c = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://u:p@db/portal', MQTT_URL: 'mqtt://broker:1883' });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db/portal' });
    expect(c.mqtt).toEqual({ kind: 'external', url: 'mqtt://broker:1883' });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: tmp(),
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        ADMIN_EMAIL: 'root@example.com',
        SMTP_URL: 'http://mail',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'ADMIN_PASSWORD', 'SMTP_URL'])
      expect(problems).toContain(name);
  });

  it('refuses an admin password that breaks the operator password policy', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'password' })).toThrow(
      /ADMIN_PASSWORD/,
    );
    expect(
      loadConfig({ DATA_DIR: tmp(), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'Strong-Pass-2026' }).admin?.email,
    ).toBe('root@example.com');
  });
});
