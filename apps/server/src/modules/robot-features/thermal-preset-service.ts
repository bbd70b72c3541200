import {
  THERMAL_PRESET_LIMIT,
  type ThermalColorMap,
  type ThermalPreset,
  type ThermalPresetInput,
  type ThermalPresetSaveResult,
} from '@portal/contract';
import type { Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { RobotThermalPresetTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { nextVersion } from '../../lib/versioned.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import { robotService } from '../robots/robot-service.ts';
import { capabilitiesOf } from './capabilities.ts';
import { capabilityMissing, reachRobot } from './robot-access.ts';
import { thermalPresetRepo } from './thermal-preset-repo.ts';

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

  async function saveOnce(
    p: Principal,
    robot: { id: number; organizationId: number },
    input: ThermalPresetInput,
    ip: string,
  ): Promise<ThermalPresetSaveResult> {
    return db.transaction().execute(async (trx) => {
      const tx = thermalPresetRepo(trx, dialect);
      // Saves of one robot's presets take turns.
      await tx.lockRobot(robot.id);
      const current = await tx.newestFirst(robot.id);
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
        await tx.update(existing.id, values);
        savedId = existing.id;
      } else {
        savedId = await tx.insert({ ...values, robot_id: robot.id, name: input.name, created_at: version });
      }
      // The saved one is the newest; the others keep their order and the oldest beyond the limit go.
      const dropped = current.filter((r) => r.id !== savedId).slice(THERMAL_PRESET_LIMIT - 1);
      await tx.remove(dropped.map((r) => r.id));
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
      const saved = await tx.get(savedId);
      return { preset: toPreset(saved), overwritten: !!existing, deleted };
    });
  }

  return {
    async list(p: Principal, robotId: number): Promise<ThermalPreset[]> {
      await robots.get(p, robotId);
      return (await thermalPresetRepo(db, dialect).newestFirst(robotId)).map(toPreset);
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
        const tx = thermalPresetRepo(trx, dialect);
        const row = await tx.find(robotId, presetId);
        if (!row) throw notFound('Thermal preset');
        await tx.remove([presetId]);
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
