import type { IpRestriction, IpRule } from '@portal/contract';
import type { Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { BuildingIpRuleTable } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { ipAllowed } from '../../lib/ip.ts';
import { assertRowInScope, buildingInScope, recorder, requireManager } from './common.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

const emptyList = () =>
  new AppError(
    'IP_LIST_EMPTY',
    'The allow-list would be empty while the restriction is on, which would lock everyone out',
  );

/** Same rule regardless of spacing and letter case (IPv6). */
const sameRule = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The building's IP allow-list and its switch (product-behaviour "Accounts and access"). Login and
 * every request are checked against it in modules/auth/access-rules.ts.
 */
export function ipRestrictionService({ db, clock, audit }: Ctx) {
  const record = recorder(audit);

  const rulesOf = (buildingId: number) =>
    db.selectFrom('building_ip_rules').selectAll().where('building_id', '=', buildingId).orderBy('id').execute();

  async function state(buildingId: number, clientIp: string): Promise<IpRestriction> {
    const b = await db
      .selectFrom('buildings')
      .select('ip_restriction_enabled')
      .where('id', '=', buildingId)
      .executeTakeFirstOrThrow();
    const rules = (await rulesOf(buildingId)).map(toIpRule);
    return {
      enabled: b.ip_restriction_enabled === 1,
      rules,
      clientIp,
      clientIpAllowed: ipAllowed(
        clientIp,
        rules.map((r) => r.address),
      ),
    };
  }

  return {
    async get(p: Principal, buildingId: number, clientIp: string): Promise<IpRestriction> {
      await buildingInScope(db, p, buildingId);
      return state(buildingId, clientIp);
    },

    async addRule(
      p: Principal,
      buildingId: number,
      body: { address: string; description: string },
      ip: string,
    ): Promise<IpRule> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      // The address format is checked by the contract's ipRuleInputSchema.
      const address = body.address.trim();
      if ((await rulesOf(b.id)).some((r) => sameRule(r.address, address))) {
        throw new AppError('DUPLICATE', 'This address is already on the list', [
          { path: 'address', message: 'validation.duplicate' },
        ]);
      }
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('building_ip_rules')
          .values({
            organization_id: b.organizationId,
            building_id: b.id,
            address,
            description: body.description.trim(),
            created_at: clock().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await record(p, ip, 'ip-rule.create', { type: 'building', id: b.id }, { ruleId: row.id, address }, trx);
        return row.id;
      });
      return toIpRule(
        await db.selectFrom('building_ip_rules').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      );
    },

    /** Refused while the restriction is on and this is the last rule (it would lock everyone out). */
    async removeRule(p: Principal, ruleId: number, ip: string): Promise<void> {
      requireManager(p);
      const rule = assertRowInScope(
        p,
        await db.selectFrom('building_ip_rules').selectAll().where('id', '=', ruleId).executeTakeFirst(),
        'IP rule',
      );
      await db.transaction().execute(async (trx) => {
        const b = await trx
          .selectFrom('buildings')
          .select('ip_restriction_enabled')
          .where('id', '=', rule.building_id)
          .executeTakeFirstOrThrow();
        const count = await trx
          .selectFrom('building_ip_rules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('building_id', '=', rule.building_id)
          .executeTakeFirstOrThrow();
        if (b.ip_restriction_enabled === 1 && Number(count.n) <= 1) throw emptyList();
        await trx.deleteFrom('building_ip_rules').where('id', '=', ruleId).execute();
        await record(
          p,
          ip,
          'ip-rule.delete',
          { type: 'building', id: rule.building_id },
          { ruleId, address: rule.address },
          trx,
        );
      });
    },

    /** Switching on with an empty list is refused. The answer says whether the caller's own address is on it. */
    async setEnabled(p: Principal, buildingId: number, enabled: boolean, ip: string): Promise<IpRestriction> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      await db.transaction().execute(async (trx) => {
        if (enabled) {
          const count = await trx
            .selectFrom('building_ip_rules')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('building_id', '=', b.id)
            .executeTakeFirstOrThrow();
          if (Number(count.n) === 0) throw emptyList();
        }
        await trx
          .updateTable('buildings')
          .set({ ip_restriction_enabled: enabled ? 1 : 0 })
          .where('id', '=', b.id)
          .execute();
        await record(
          p,
          ip,
          enabled ? 'ip-restriction.enable' : 'ip-restriction.disable',
          { type: 'building', id: b.id },
          undefined,
          trx,
        );
      });
      return state(b.id, ip);
    },
  };
}

function toIpRule(r: Selectable<BuildingIpRuleTable>): IpRule {
  return {
    id: r.id,
    buildingId: r.building_id,
    address: r.address,
    description: r.description,
    createdAt: r.created_at,
  };
}
