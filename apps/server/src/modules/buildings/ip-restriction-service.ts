import type { IpRestriction, IpRule } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { ipAllowed } from '../../lib/ip.ts';
import { camelRow } from '../../lib/naming.ts';
import { buildingRepo } from './building-repo.ts';
import { assertRowInScope, buildingInScope, recorder, requireManager } from './common.ts';
import { ipRuleRepo, type IpRuleRow } from './ip-rule-repo.ts';

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
  const rulesRepo = ipRuleRepo(db);
  const rulesOf = (buildingId: number) => rulesRepo.listOf(buildingId);

  async function state(buildingId: number, clientIp: string): Promise<IpRestriction> {
    const enabled = await buildingRepo(db).ipRestrictionEnabled(buildingId);
    const rules = (await rulesOf(buildingId)).map(toIpRule);
    return {
      enabled,
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
        const ruleId = await ipRuleRepo(trx).insert({
          organization_id: b.organizationId,
          building_id: b.id,
          address,
          description: body.description.trim(),
          created_at: clock().toISOString(),
        });
        await record(p, ip, 'ip-rule.create', { type: 'building', id: b.id }, { ruleId, address }, trx);
        return ruleId;
      });
      const created = await rulesRepo.find(id);
      if (!created) throw new Error(`IP rule ${id} vanished after its insert`);
      return toIpRule(created);
    },

    /** Refused while the restriction is on and this is the last rule (it would lock everyone out). */
    async removeRule(p: Principal, ruleId: number, ip: string): Promise<void> {
      requireManager(p);
      const rule = assertRowInScope(p, await rulesRepo.find(ruleId), 'IP rule');
      await db.transaction().execute(async (trx) => {
        const rules = ipRuleRepo(trx);
        const enabled = await buildingRepo(trx).ipRestrictionEnabled(rule.building_id);
        if (enabled && (await rules.countOf(rule.building_id)) <= 1) throw emptyList();
        await rules.remove(ruleId);
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
        if (enabled && (await ipRuleRepo(trx).countOf(b.id)) === 0) throw emptyList();
        await buildingRepo(trx).update(b.id, { ip_restriction_enabled: enabled ? 1 : 0 });
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

function toIpRule(r: IpRuleRow): IpRule {
  return camelRow(r, ['id', 'building_id', 'address', 'description', 'created_at']);
}
