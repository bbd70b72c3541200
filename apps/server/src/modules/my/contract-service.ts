import {
  isAdmin,
  OperatorType,
  type Contract,
  type Session,
  type TermCheck,
  type TermDocument,
  type TermKind,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { contractRepo } from './contract-repo.ts';

const flags = (r: {
  is_archive: number | null;
  is_mini_asilla: number | null;
  is_lilz: number | null;
  is_hakaru_ai: number | null;
  is_kanriroid: number | null;
  is_auto_guide: number | null;
}) => ({
  isArchive: r.is_archive === 1,
  isMiniAsilla: r.is_mini_asilla === 1,
  isLilz: r.is_lilz === 1,
  isHakaruAi: r.is_hakaru_ai === 1,
  isKanriroid: r.is_kanriroid === 1,
  isAutoGuide: r.is_auto_guide === 1,
});

/**
 * The contract, term agreements and the operator's current building ("change location").
 * The maintenance contract (MC) is signed by the customer organization's administrator: that
 * operator is the maintenance company's "owner" for the agreement rule of spec section 4.
 */
export function contractService(ctx: Pick<AppContext, 'db' | 'clock' | 'audit' | 'config'>) {
  const { db, clock, audit } = ctx;
  const repo = contractRepo(db);

  const isMcOwner = (p: Principal, hasMaintenanceCompany: boolean) =>
    hasMaintenanceCompany && p.type === OperatorType.orgAdmin;

  const contractRow = (organizationId: number) => repo.contract(organizationId);

  async function latestDocuments(): Promise<
    Map<TermKind, { id: number; row: Record<string, string | number | null> }>
  > {
    const rows = await repo.publishedDocuments(clock().toISOString());
    const latest = new Map<TermKind, { id: number; row: Record<string, string | number | null> }>();
    for (const r of rows) {
      const kind = r.kind as TermKind;
      if (!latest.has(kind)) latest.set(kind, { id: r.id, row: r });
    }
    return latest;
  }

  return {
    async contract(p: Principal): Promise<Contract> {
      const c = await contractRow(p.organizationId);
      // General operators see their own building only.
      const buildings = await repo.buildingsWithOptions(
        p.organizationId,
        p.type === OperatorType.general ? (p.buildingId ?? -1) : undefined,
      );
      const current = buildings.find((b) => b.id === p.buildingId);
      const none = flags({
        is_archive: 0,
        is_mini_asilla: 0,
        is_lilz: 0,
        is_hakaru_ai: 0,
        is_kanriroid: 0,
        is_auto_guide: 0,
      });
      return {
        ...(current ? flags(current) : none),
        contractEndAt: c?.contract_end_at ?? null,
        paymentCompleted: c ? c.payment_completed === 1 : true,
        maintenanceCompany:
          c?.maintenance_company_id != null
            ? { id: c.maintenance_company_id, name: c.mc_name ?? '', isOwner: isMcOwner(p, true) }
            : null,
        buildings: buildings.map((b) => ({ buildingId: b.id, name: b.name, ...flags(b) })),
      };
    },

    async termCheck(p: Principal, lang: 'ja' | 'en'): Promise<TermCheck> {
      const latest = await latestDocuments();
      const ids = [...latest.values()].map((d) => d.id);
      const agreed = new Set(await repo.agreedDocuments(p.operatorId, ids));
      const pending = (kind: TermKind): TermDocument | null => {
        const d = latest.get(kind);
        if (!d || agreed.has(d.id)) return null;
        const r = d.row;
        return {
          id: d.id,
          kind,
          version: String(r.version),
          title: String(lang === 'ja' ? r.title_ja : r.title_en),
          body: String(lang === 'ja' ? r.body_ja : r.body_en),
          publishedAt: String(r.published_at),
        };
      };
      return { TOS: pending('TOS'), PP: pending('PP'), MC: pending('MC') };
    },

    async agree(p: Principal, documentIds: number[], ip: string): Promise<void> {
      const latest = await latestDocuments();
      const byId = new Map([...latest.entries()].map(([kind, d]) => [d.id, kind]));
      const c = await contractRow(p.organizationId);
      for (const id of documentIds) {
        const kind = byId.get(id);
        if (!kind)
          throw new AppError('VALIDATION_FAILED', 'Not a current term document', [
            { path: 'documentIds', message: 'validation.invalid' },
          ]);
        if (kind === 'MC' && !isMcOwner(p, c?.maintenance_company_id != null)) {
          throw new AppError('TERMS_NOT_APPLICABLE', 'Only the maintenance contract owner agrees to it');
        }
      }
      const now = clock().toISOString();
      await db.transaction().execute(async (trx) => {
        for (const id of new Set(documentIds)) {
          if (!(await repo.agree(trx, { operatorId: p.operatorId, documentId: id, at: now, ip }))) continue;
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId: p.organizationId,
              action: 'terms.agree',
              targetType: 'term-document',
              targetId: id,
              ip,
              detail: { kind: byId.get(id) },
            },
            trx,
          );
        }
      });
    },

    /** "Change location": administrators switch their current building within their scope. */
    async changeLocation(p: Principal, buildingId: number, ip: string, token: string): Promise<Session> {
      if (!isAdmin(p.type)) throw forbidden('General operators work in their own building');
      const b = await repo.building(buildingId);
      if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id })) throw notFound('Building');
      await repo.setCurrentBuilding(p.operatorId, buildingId, clock().toISOString());
      await audit.record({
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action: 'location.change',
        targetType: 'building',
        targetId: buildingId,
        ip,
      });
      return {
        token,
        id: p.operatorId,
        type: p.type as Session['type'],
        firstName: p.firstName,
        lastName: p.lastName,
        organizationId: p.organizationId,
        buildingId,
        labsEnabled: p.labsEnabled,
        skywayKey: ctx.config.skywayKey,
        language: p.language,
      };
    },
  };
}
