import type { InitData } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { newOperatorRow } from '../operators/new-operator.ts';
import { newFloorRow } from '../floors/floor-repo.ts';
import { initDataRepo } from './init-data-repo.ts';

/**
 * Initial data import (/auth/init-data): one organization, its buildings with floors, and its
 * operators, in one transaction: all of it or nothing.
 */
export function initDataService({ db, clock, audit }: Pick<AppContext, 'db' | 'clock' | 'audit'>) {
  const repo = initDataRepo(db);
  return {
    async import(p: Principal, data: InitData, ip: string) {
      const loginIds = data.operators.map((o) => o.loginId.toLowerCase());
      // Checked before the transaction so the answer names every clash at once.
      const [orgClash, idClashes] = await Promise.all([
        repo.organizationNameTaken(data.organization.name),
        repo.takenLoginIds(loginIds),
      ]);
      const details = [
        ...(orgClash ? [{ path: 'organization.name', message: 'validation.duplicate' }] : []),
        ...idClashes.map((loginId) => ({
          path: `operators.${loginIds.indexOf(loginId)}.loginId`,
          message: 'validation.duplicate',
        })),
      ];
      if (details.length > 0) throw new AppError('DUPLICATE', 'Some of the data already exists', details);

      const hashes = await Promise.all(data.operators.map((o) => hashPassword(o.password)));
      const now = clock().toISOString();
      return db.transaction().execute(async (trx) => {
        const organizationId = await repo.insertOrganization(trx, {
          name: data.organization.name,
          type: data.organization.type,
          level: 0,
          prefecture: data.organization.prefecture || null,
          city: data.organization.city ?? null,
          address: data.organization.address ?? null,
          postal_code: data.organization.postalCode ?? null,
          status: 1,
          lab_option: data.organization.labOption ? 1 : 0,
          created_at: now,
          updated_at: now,
        });
        const org = { id: organizationId };
        await repo.insertContract(trx, {
          organization_id: org.id,
          contract_end_at: data.organization.contractEndAt ?? null,
          payment_completed: 1,
          maintenance_company_id: null,
          created_at: now,
          updated_at: now,
        });
        const buildingIds: number[] = [];
        let floors = 0;
        for (const b of data.buildings) {
          const buildingId = await repo.insertBuilding(trx, {
            organization_id: org.id,
            name: b.name,
            prefecture: b.prefecture || null,
            city: b.city ?? null,
            address: b.address ?? null,
            postal_code: b.postalCode ?? null,
            latitude: b.latitude ?? null,
            longitude: b.longitude ?? null,
            status: 1,
            ip_restriction_enabled: 0,
            ...(b.timeZone ? { time_zone: b.timeZone } : {}),
            created_at: now,
            updated_at: now,
          });
          buildingIds.push(buildingId);
          if (b.floors.length > 0) {
            await repo.insertFloors(
              trx,
              b.floors.map((f) => newFloorRow({ organizationId: org.id, buildingId }, f, now)),
            );
            floors += b.floors.length;
          }
        }
        for (const [i, o] of data.operators.entries()) {
          await repo.insertOperator(
            trx,
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
          );
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
