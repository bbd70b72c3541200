import type { InitData } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { newOperatorRow } from '../operators/new-operator.ts';

/**
 * Initial data import (/auth/init-data): one organization, its buildings with floors, and its
 * operators, in one transaction: all of it or nothing.
 */
export function initDataService({ db, clock, audit }: Pick<AppContext, 'db' | 'clock' | 'audit'>) {
  return {
    async import(p: Principal, data: InitData, ip: string) {
      const loginIds = data.operators.map((o) => o.loginId.toLowerCase());
      // Checked before the transaction so the answer names every clash at once.
      const [orgClash, idClashes] = await Promise.all([
        db
          .selectFrom('organizations')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['name']), '=', data.organization.name.toLowerCase()))
          .executeTakeFirst(),
        loginIds.length === 0
          ? Promise.resolve([])
          : db.selectFrom('operators').select('login_id').where('login_id', 'in', loginIds).execute(),
      ]);
      const details = [
        ...(orgClash ? [{ path: 'organization.name', message: 'validation.duplicate' }] : []),
        ...idClashes.map((r) => ({
          path: `operators.${loginIds.indexOf(r.login_id)}.loginId`,
          message: 'validation.duplicate',
        })),
      ];
      if (details.length > 0) throw new AppError('DUPLICATE', 'Some of the data already exists', details);

      const hashes = await Promise.all(data.operators.map((o) => hashPassword(o.password)));
      const now = clock().toISOString();
      return db.transaction().execute(async (trx) => {
        const org = await trx
          .insertInto('organizations')
          .values({
            name: data.organization.name,
            type: data.organization.type,
            level: 0,
            prefecture: data.organization.prefecture ?? null,
            city: data.organization.city ?? null,
            address: data.organization.address ?? null,
            postal_code: data.organization.postalCode ?? null,
            status: 1,
            lab_option: data.organization.labOption ? 1 : 0,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('contracts')
          .values({
            organization_id: org.id,
            contract_end_at: data.organization.contractEndAt ?? null,
            payment_completed: 1,
            maintenance_company_id: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const buildingIds: number[] = [];
        let floors = 0;
        for (const b of data.buildings) {
          const row = await trx
            .insertInto('buildings')
            .values({
              organization_id: org.id,
              name: b.name,
              prefecture: b.prefecture ?? null,
              city: b.city ?? null,
              address: b.address ?? null,
              postal_code: b.postalCode ?? null,
              latitude: b.latitude ?? null,
              longitude: b.longitude ?? null,
              status: 1,
              ip_restriction_enabled: 0,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          buildingIds.push(row.id);
          if (b.floors.length > 0) {
            await trx
              .insertInto('floors')
              .values(
                b.floors.map((f) => ({
                  organization_id: org.id,
                  building_id: row.id,
                  name: f.name,
                  type: f.type,
                  index: f.index,
                  img: null,
                  ugomap: null,
                  created_at: now,
                  updated_at: now,
                })),
              )
              .execute();
            floors += b.floors.length;
          }
        }
        for (const [i, o] of data.operators.entries()) {
          await trx
            .insertInto('operators')
            .values(
              newOperatorRow({
                organizationId: org.id,
                buildingId: buildingIds[o.building] ?? null,
                loginId: o.loginId,
                passwordHash: hashes[i]!,
                firstName: o.firstName,
                lastName: o.lastName,
                type: o.type,
                now,
              }),
            )
            .execute();
        }
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: org.id,
            action: 'init-data.import',
            targetType: 'organization',
            targetId: org.id,
            ip,
            detail: { buildings: buildingIds.length, floors, operators: data.operators.length },
          },
          trx,
        );
        return { organizationId: org.id, buildings: buildingIds.length, floors, operators: data.operators.length };
      });
    },
  };
}
