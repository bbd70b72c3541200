import {
  THERMAL_PRESET_LIMIT,
  type ThermalColorMap,
  type ThermalPreset,
  type ThermalPresetInput,
  type ThermalPresetSaveResult,
} from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database, RobotThermalPresetTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { nextVersion } from '../buildings/common.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import { robotService } from '../robots/robot-service.ts';
import { capabilitiesOf } from './capabilities.ts';
import { capabilityMissing, reachRobot } from './robot-access.ts';

type Ctx = Pick<AppContext, 'db' | 'dialect' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink'>;

const toPreset = (r: Selectable<RobotThermalPresetTable>): ThermalPreset => ({
  id: r.id,
  robotId: r.robot_id,
  name: r.name,
  colorMap: r.color_map as ThermalColorMap,
  rangeMin: Number(r.range_min),
  rangeMax: Number(r.range_max),
  updatedAt: r.updated_at,
});

/**
 * Thermal camera presets per robot (spec section 9): the same name (trimmed, case-sensitive)
 * overwrites; beyond THERMAL_PRESET_LIMIT the least recently saved go, in the same transaction.
 * Any operator who can reach the robot manages them; saving needs a robot with a thermal camera.
 */
export function thermalPresetService(ctx: Ctx) {
  const { db, dialect, clock, audit, robotLink: link } = ctx;
  const robots = robotService(ctx);

  const newestFirst = (trx: Kysely<Database>, robotId: number) =>
    trx
      .selectFrom('robot_thermal_presets')
      .selectAll()
      .where('robot_id', '=', robotId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc');

  async function saveOnce(
    p: Principal,
    robot: { id: number; organizationId: number },
    input: ThermalPresetInput,
    ip: string,
  ): Promise<ThermalPresetSaveResult> {
    return db.transaction().execute(async (trx) => {
      // Saves of one robot's presets take turns (PostgreSQL; SQLite runs one writer at a time).
      if (dialect === 'postgres') {
        await trx.selectFrom('robots').select('id').where('id', '=', robot.id).forUpdate().execute();
      }
      const current = await newestFirst(trx, robot.id).execute();
      const existing = current.find((r) => r.name === input.name);
      // Later than every preset of the robot, so the one saved now is the newest even within a millisecond.
      const version = nextVersion(clock(), current[0]?.updated_at);
      const values = {
        color_map: input.colorMap,
        range_min: input.rangeMin,
        range_max: input.rangeMax,
        updated_at: version,
      };
      let savedId: number;
      if (existing) {
        await trx.updateTable('robot_thermal_presets').set(values).where('id', '=', existing.id).execute();
        savedId = existing.id;
      } else {
        const row = await trx
          .insertInto('robot_thermal_presets')
          .values({ ...values, robot_id: robot.id, name: input.name, created_at: version })
          .returning('id')
          .executeTakeFirstOrThrow();
        savedId = row.id;
      }
      // The saved one is the newest; the others keep their order and the oldest beyond the limit go.
      const dropped = current.filter((r) => r.id !== savedId).slice(THERMAL_PRESET_LIMIT - 1);
      const droppedIds = dropped.map((r) => r.id);
      if (droppedIds.length > 0) {
        await trx.deleteFrom('robot_thermal_presets').where('id', 'in', droppedIds).execute();
      }
      const deleted = dropped.map((r) => r.name);
      await audit.record(
        {
          operatorId: p.operatorId,
          organizationId: robot.organizationId,
          action: existing ? 'robot.thermal-preset.update' : 'robot.thermal-preset.create',
          targetType: 'robot',
          targetId: robot.id,
          ip,
          detail: {
            name: input.name,
            colorMap: input.colorMap,
            rangeMin: input.rangeMin,
            rangeMax: input.rangeMax,
            deleted,
          },
        },
        trx,
      );
      const saved = await trx
        .selectFrom('robot_thermal_presets')
        .selectAll()
        .where('id', '=', savedId)
        .executeTakeFirstOrThrow();
      return { preset: toPreset(saved), overwritten: !!existing, deleted };
    });
  }

  return {
    async list(p: Principal, robotId: number): Promise<ThermalPreset[]> {
      await robots.get(p, robotId);
      return (await newestFirst(db, robotId).execute()).map(toPreset);
    },

    async save(p: Principal, robotId: number, input: ThermalPresetInput, ip: string): Promise<ThermalPresetSaveResult> {
      const robot = await robots.get(p, robotId);
      const r = reachRobot(link, p, robotId);
      if (!capabilitiesOf(r.details.factsheet).thermal) throw capabilityMissing('thermal presets');
      try {
        return await saveOnce(p, robot, input, ip);
      } catch (err) {
        // The same new name saved at the same moment elsewhere: this save overwrites it.
        if (isUniqueViolation(err)) return saveOnce(p, robot, input, ip);
        throw err;
      }
    },

    async remove(p: Principal, robotId: number, presetId: number, ip: string): Promise<void> {
      const robot = await robots.get(p, robotId);
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('robot_thermal_presets')
          .select('name')
          .where('id', '=', presetId)
          .where('robot_id', '=', robotId)
          .executeTakeFirst();
        if (!row) throw notFound('Thermal preset');
        await trx.deleteFrom('robot_thermal_presets').where('id', '=', presetId).execute();
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: robot.organizationId,
            action: 'robot.thermal-preset.delete',
            targetType: 'robot',
            targetId: robotId,
            ip,
            detail: { name: row.name },
          },
          trx,
        );
      });
    },
  };
}
