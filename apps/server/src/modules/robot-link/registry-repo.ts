import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RobotFacts } from './fleet-state.ts';

/** The registry facts of one robot as the link keeps them, with when it last communicated. */
export interface RegistryRow extends RobotFacts {
  lastCommunicationAt: string | null;
}

/** A robot's broker sign-in facts. */
export interface BrokerLogin {
  id: number;
  manufacturer: string;
  serial_no: string;
  mqtt_password_hash: string;
}

/** At most this many clients await registration; the ones seen longest ago give way to new ones. */
export const PENDING_ROBOTS_MAX = 500;
/** A client not seen for this long no longer awaits registration. */
export const PENDING_ROBOTS_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** All the SQL of the robot link: the registry it mirrors, broker sign-ins, robots awaiting registration. */
export function registryRepo(db: Kysely<Database>) {
  /**
   * Unknown clients can sign in without limit, so the table is bounded: entries unseen for the TTL
   * go, then all but the most recently seen PENDING_ROBOTS_MAX. (`last_seen_at` is an ISO timestamp,
   * so text order is time order.)
   */
  const prunePending = async (at: string) => {
    const expired = new Date(new Date(at).getTime() - PENDING_ROBOTS_TTL_MS).toISOString();
    await db.deleteFrom('pending_robots').where('last_seen_at', '<', expired).execute();
    await db
      .deleteFrom('pending_robots')
      .where(
        'id',
        'not in',
        db
          .selectFrom('pending_robots as keep')
          .select('keep.id')
          .orderBy('keep.last_seen_at', 'desc')
          .orderBy('keep.id', 'desc')
          .limit(PENDING_ROBOTS_MAX),
      )
      .execute();
  };

  const registryQuery = () =>
    db
      .selectFrom('robots as r')
      .innerJoin('buildings as b', 'b.id', 'r.building_id')
      .leftJoin('robot_groups as g', 'g.id', 'r.group_id')
      .select([
        'r.id',
        'r.organization_id as organizationId',
        'r.building_id as buildingId',
        'b.name as buildingName',
        'r.floor_id as floorId',
        'r.group_id as groupId',
        'g.name as groupName',
        'r.serial_no as serialNo',
        'r.name',
        'r.model',
        'r.manufacturer',
        'r.status',
        'r.video_mode as videoMode',
        'r.last_communication_at as lastCommunicationAt',
      ])
      .where('r.deleted_at', 'is', null);

  return {
    /** Every live (not deleted) robot. */
    async robots(): Promise<RegistryRow[]> {
      return (await registryQuery().execute()) as RegistryRow[];
    },

    /** One live robot, or undefined when it is unknown or deleted. */
    async robot(robotId: number): Promise<RegistryRow | undefined> {
      return (await registryQuery().where('r.id', '=', robotId).executeTakeFirst()) as RegistryRow | undefined;
    },

    /** The live robot signing in to the broker with this user name. */
    loginOf(username: string): Promise<BrokerLogin | undefined> {
      return db
        .selectFrom('robots')
        .select(['id', 'manufacturer', 'serial_no', 'mqtt_password_hash'])
        .where('mqtt_username', '=', username)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /**
     * A client the registry does not know tried to sign in: counted in `pending_robots` ("awaiting
     * registration"). A registered robot with a wrong password is not awaiting registration.
     */
    async recordPending(username: string, clientId: string, ip: string, at: string): Promise<void> {
      const known = await db
        .selectFrom('robots')
        .select('id')
        .where('mqtt_username', '=', username)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (known) return;
      const updated = await db
        .updateTable('pending_robots')
        .set((eb) => ({ client_id: clientId, ip, last_seen_at: at, attempts: eb('attempts', '+', 1) }))
        .where('username', '=', username)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        await db
          .insertInto('pending_robots')
          .values({ username, client_id: clientId, ip, attempts: 1, first_seen_at: at, last_seen_at: at })
          .execute();
        await prunePending(at);
      }
    },

    /** A newly registered robot no longer awaits registration (under its broker user name). */
    async forgetPending(robotId: number): Promise<void> {
      await db
        .deleteFrom('pending_robots')
        .where('username', 'in', db.selectFrom('robots').select('mqtt_username').where('id', '=', robotId))
        .execute();
    },

    /** The robots' last communication time (one statement for the robots of one instant). */
    async saveLastCommunication(at: string, robotIds: number[]): Promise<void> {
      await db.updateTable('robots').set({ last_communication_at: at }).where('id', 'in', robotIds).execute();
    },
  };
}

export type RegistryRepo = ReturnType<typeof registryRepo>;
