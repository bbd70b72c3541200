import type { Kysely } from 'kysely';
import { ACTIVE_RUN_STATUSES } from '@portal/contract';
import type { Database } from '../db/schema.ts';
import { insertReturningId } from '../db/rows.ts';
import { snakeRow } from '../lib/naming.ts';

export interface NewSimulatedRobot {
  organizationId: number;
  buildingId: number;
  floorId: number;
  serialNo: string;
  name: string;
  model: string;
  manufacturer: string;
  mqttUsername: string;
  mqttPasswordHash: string;
  notes: string;
  at: string;
}

/** SQL of `npm start`'s simulated fleet: the demo building, its floors, the simulated robots. */
export function simulatedFleetRepo(db: Kysely<Database>) {
  return {
    /** The first building of this name. */
    buildingNamed: (name: string) =>
      db
        .selectFrom('buildings')
        .select(['id', 'organization_id'])
        .where('name', '=', name)
        .orderBy('id')
        .executeTakeFirst(),

    /** The building's floors, top floor first. */
    floorsOf: (buildingId: number) =>
      db
        .selectFrom('floors')
        .select(['id', 'index'])
        .where('building_id', '=', buildingId)
        .orderBy('index', 'desc')
        .execute(),

    /** The live (not deleted) robot of this serial number. */
    liveRobotBySerial: (serialNo: string) =>
      db
        .selectFrom('robots')
        .select(['id', 'floor_id', 'name'])
        .where('serial_no', '=', serialNo)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),

    /** Of these robots, the ones with a flow run in progress (running or paused). */
    async robotsInFlows(robotIds: readonly number[]): Promise<Set<number>> {
      if (robotIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('flow_runs')
        .select('robot_id')
        .where('robot_id', 'in', [...robotIds])
        .where('status', 'in', [...ACTIVE_RUN_STATUSES])
        .execute();
      return new Set(rows.map((r) => r.robot_id));
    },

    async setPasswordHash(robotId: number, hash: string): Promise<void> {
      await db.updateTable('robots').set({ mqtt_password_hash: hash }).where('id', '=', robotId).execute();
    },

    /** Registers a simulated robot (status 1, video medium, protocol 2.1.0); answers its id. */
    async insertRobot({ at, ...robot }: NewSimulatedRobot): Promise<number> {
      return insertReturningId(db, 'robots', {
        ...snakeRow(robot),
        group_id: null,
        version: '2.1.0',
        hardware_revision: '1',
        status: 1,
        long_term_rec_auto_start: 0,
        video_mode: 'medium',
        last_communication_at: null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      });
    },
  };
}
