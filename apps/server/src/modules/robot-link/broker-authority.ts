import type { FastifyBaseLogger } from 'fastify';
import { sameHash, sha256 } from '../../lib/crypto.ts';
import type { Clock } from '../../lib/time.ts';
import type { BrokerAuthority, BrokerIdentity } from './broker.ts';
import type { RegistryRepo } from './registry-repo.ts';

/** A client awaiting registration is recorded at most this often. */
const PENDING_THROTTLE_MS = 10_000;

/**
 * Who may sign in to the broker and as whom, answered from the robot registry: a registered robot's
 * user name and password; unknown clients are recorded as "awaiting registration" (throttled).
 */
export function createBrokerAuthority(deps: {
  repo: Pick<RegistryRepo, 'loginOf' | 'recordPending'>;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'error'>;
}): BrokerAuthority {
  const { repo, clock, log } = deps;
  const pendingSeen = new Map<string, number>();
  const identityOf = (row: { id: number; manufacturer: string; serial_no: string }): BrokerIdentity => ({
    role: 'robot',
    robotId: row.id,
    manufacturer: row.manufacturer,
    serialNo: row.serial_no,
  });
  return {
    async authenticate(username, password) {
      if (!username || !password) return null;
      const row = await repo.loginOf(username);
      if (!row || !sameHash(row.mqtt_password_hash, sha256(password))) return null;
      return identityOf(row);
    },
    async identify(username) {
      const row = username ? await repo.loginOf(username) : undefined;
      return row ? identityOf(row) : null;
    },
    unknownClient({ username, clientId, ip }) {
      const key = username || clientId;
      const now = clock().getTime();
      if (!key || now - (pendingSeen.get(key) ?? 0) < PENDING_THROTTLE_MS) return;
      pendingSeen.set(key, now);
      void repo
        .recordPending(key.slice(0, 64), clientId.slice(0, 128), ip.slice(0, 64), clock().toISOString())
        .catch((err: unknown) => log.error({ err }, 'could not record a robot awaiting registration'));
    },
  };
}
