import type { Kysely } from 'kysely';
import {
  DEMO_MAP_RESOLUTION,
  DEMO_PATROL_ROUTE,
  DEMO_WAYPOINTS,
  demoWorldPlan,
  floorMapId,
  rasterizePlan,
  WaypointType,
  type MapDocument,
  type WaypointTypeCode,
} from '@portal/contract';
import type { Dialect } from './db/migrator.ts';
import type { Database } from './db/schema.ts';
import { hashPassword } from './lib/crypto.ts';
import { occupancyGridPng } from './lib/png.ts';
import { floorRepo, newFloorRow } from './modules/floors/floor-repo.ts';
import { mapRepo } from './modules/maps/map-repo.ts';
import type { FileStore } from './services/file-store.ts';
import { addDays } from './lib/time.ts';
import { newOperatorRow } from './modules/operators/new-operator.ts';
import { seedRepo } from './seed-repo.ts';
import { TEMPLATE_VERSION, TERM_TEMPLATES } from './modules/terms/templates.ts';

/** The organization system administrators belong to (the portal's operator). */
export const SYSTEM_ORGANIZATION = 'Portal Operations';

/** Demo accounts, listed in the README. Every password meets the operator password policy. */
export const DEMO_ACCOUNTS = [
  {
    loginId: 'operator@demo.example',
    password: 'Demo-Operator-2026',
    type: 0,
    lastName: '山田',
    firstName: '太郎',
    role: 'general operator',
  },
  {
    loginId: 'manager@demo.example',
    password: 'Demo-Manager-2026',
    type: 1,
    lastName: '佐藤',
    firstName: '花子',
    role: 'area manager',
  },
  {
    loginId: 'orgadmin@demo.example',
    password: 'Demo-OrgAdmin-2026',
    type: 2,
    lastName: '鈴木',
    firstName: '一郎',
    role: 'organization administrator',
  },
  {
    loginId: 'sysadmin@demo.example',
    password: 'Demo-SysAdmin-2026',
    type: 9,
    lastName: 'Admin',
    firstName: 'System',
    role: 'system administrator',
  },
  {
    loginId: 'twostep@demo.example',
    password: 'Demo-TwoStep-2026',
    type: 0,
    lastName: '高橋',
    firstName: '次郎',
    role: 'general operator, verification code by email',
    authMode: 'email',
  },
  {
    loginId: 'terms@demo.example',
    password: 'Demo-Terms-2026',
    type: 0,
    lastName: '田中',
    firstName: '三郎',
    role: 'general operator who has not yet agreed to the terms',
    agreed: false,
  },
] as const;

/** The name of the demo building (the simulated fleet lives in it). */
export const DEMO_BUILDING = 'Demo Tower';

type Db = Kysely<Database>;

async function ensureSystemOrganization(db: Db, now: string): Promise<number> {
  const repo = seedRepo(db);
  const existing = await repo.organizationIdNamed(SYSTEM_ORGANIZATION);
  if (existing !== undefined) return existing;
  return repo.insertOrganization({
    name: SYSTEM_ORGANIZATION,
    type: 3,
    level: 0,
    prefecture: null,
    city: null,
    address: null,
    postal_code: null,
    status: 1,
    lab_option: 1,
    created_at: now,
    updated_at: now,
  });
}

/** ADMIN_EMAIL + ADMIN_PASSWORD: creates a system administrator when the database has none. */
export async function ensureAdmin(db: Db, admin: { email: string; password: string }, now: Date): Promise<boolean> {
  const repo = seedRepo(db);
  if (await repo.anySystemAdmin()) return false;
  const at = now.toISOString();
  const orgId = await ensureSystemOrganization(db, at);
  await repo.insertOperator(
    newOperatorRow({
      organizationId: orgId,
      buildingId: null,
      loginId: admin.email,
      passwordHash: await hashPassword(admin.password),
      type: 9,
      lastName: 'Administrator',
      firstName: 'System',
      now: at,
    }),
  );
  return true;
}

export async function isEmpty(db: Db): Promise<boolean> {
  return !(await seedRepo(db).anyOrganization());
}

/** The maintenance contract of the demo; the terms of service and privacy policy are the templates. */
const TERMS = {
  MC: {
    ja: ['保守契約', '保守会社は、契約期間中、ロボットの点検、修理および遠隔保守を行います。'],
    en: [
      'Maintenance Contract',
      'During the contract period the maintenance company inspects, repairs and remotely maintains the robots.',
    ],
  },
} as const;

function longBody(intro: string, lang: 'ja' | 'en'): string {
  const sections = Array.from({ length: 12 }, (_, i) =>
    lang === 'ja'
      ? `第${i + 1}条\n${intro}利用者は、関係法令および本規約を遵守し、ロボットを安全に運用するものとします。`
      : `Article ${i + 1}\n${intro} The user complies with the applicable laws and these terms and operates the robots safely.`,
  );
  return [intro, ...sections].join('\n\n');
}

/** Demo data on an empty database: one organization, one building with 1F, 2F and B1, one account of each type. */
export async function seedDemo(db: Db, now: Date): Promise<void> {
  const at = now.toISOString();
  const systemOrgId = await ensureSystemOrganization(db, at);
  await db.transaction().execute(async (trx) => {
    const repo = seedRepo(trx);
    const orgId = await repo.insertOrganization({
      name: 'Demo Facilities Co.',
      type: 0,
      level: 0,
      prefecture: '13', // 東京都 (JIS X 0401)
      city: '千代田区',
      address: '丸の内1-1-1',
      postal_code: '100-0005',
      status: 1,
      lab_option: 1,
      created_at: at,
      updated_at: at,
    });
    await repo.insertContract({
      organization_id: orgId,
      contract_end_at: addDays(now, 365).toISOString().slice(0, 10),
      payment_completed: 1,
      maintenance_company_id: systemOrgId,
      created_at: at,
      updated_at: at,
    });
    const buildingId = await repo.insertBuilding({
      organization_id: orgId,
      name: DEMO_BUILDING,
      prefecture: '13', // 東京都 (JIS X 0401)
      city: '千代田区',
      address: '丸の内1-1-1',
      postal_code: '100-0005',
      latitude: 35.6812,
      longitude: 139.7671,
      time_zone: 'Asia/Tokyo',
      status: 1,
      ip_restriction_enabled: 0,
      created_at: at,
      updated_at: at,
    });
    await repo.insertBuildingOptions({
      building_id: buildingId,
      organization_id: orgId,
      is_archive: 1,
      is_mini_asilla: 0,
      is_lilz: 0,
      is_hakaru_ai: 1,
      is_kanriroid: 0,
      is_auto_guide: 1,
    });
    await repo.insertFloors(
      [
        { name: '1F', index: 1, type: 'entrance' },
        { name: '2F', index: 2, type: 'office' },
        { name: 'B1', index: 0, type: 'parking' },
      ].map((f) => newFloorRow({ organizationId: orgId, buildingId }, f, at)),
    );
    for (const [table, names] of [
      ['robot_groups', ['Patrol', 'Reception']],
      ['flow_groups', ['Daily patrol', 'Night patrol']],
    ] as const) {
      await repo.insertGroups(
        table,
        names.map((name, i) => ({
          organization_id: orgId,
          building_id: buildingId,
          name,
          sort_order: i,
          created_at: at,
          updated_at: at,
        })),
      );
    }

    const docIds: number[] = [];
    for (const kind of ['TOS', 'PP'] as const) {
      const t = TERM_TEMPLATES[kind];
      docIds.push(
        await repo.insertTermDocument({
          kind,
          version: TEMPLATE_VERSION,
          title_ja: t.titleJa,
          title_en: t.titleEn,
          body_ja: t.bodyJa,
          body_en: t.bodyEn,
          published_at: at,
          updated_at: at,
        }),
      );
    }
    const mc = TERMS.MC;
    docIds.push(
      await repo.insertTermDocument({
        kind: 'MC',
        version: '1.0',
        title_ja: mc.ja[0],
        title_en: mc.en[0],
        body_ja: longBody(mc.ja[1], 'ja'),
        body_en: longBody(mc.en[1], 'en'),
        published_at: at,
        updated_at: at,
      }),
    );

    for (const a of DEMO_ACCOUNTS) {
      const sys = a.type === 9;
      const operatorId = await repo.insertOperator(
        newOperatorRow({
          organizationId: sys ? systemOrgId : orgId,
          buildingId: sys ? null : buildingId,
          loginId: a.loginId,
          passwordHash: await hashPassword(a.password),
          type: a.type,
          lastName: a.lastName,
          firstName: a.firstName,
          authMode: 'authMode' in a ? a.authMode : 'none',
          now: at,
        }),
      );
      if (!('agreed' in a)) {
        await repo.insertTermAgreements(
          docIds.map((id) => ({ operator_id: operatorId, document_id: id, agreed_at: at, ip: null })),
        );
      }
      await repo.insertMessage({
        organization_id: sys ? systemOrgId : orgId,
        operator_id: operatorId,
        level: 0,
        title: 'Welcome to the Robot Portal / ロボットポータルへようこそ',
        body: 'Robots of your building appear under Robot control once they connect. / 接続されたロボットは「ロボット操作」に表示されます。',
        read_at: null,
        created_at: at,
      });
    }

    await repo.insertAnnouncement({
      organization_id: null,
      level: 0,
      title_ja: 'ロボットポータル 1.14.1 を公開しました',
      title_en: 'Robot Portal 1.14.1 is out',
      body_ja: 'ログイン時の二段階認証、端末管理、契約情報の表示に対応しました。',
      body_en: 'Two-step login, device management and the contract page are available.',
      published_at: at,
      created_at: at,
    });
  });
}

const ROLE_TYPE: Record<(typeof DEMO_WAYPOINTS)[number]['role'], WaypointTypeCode> = {
  charger: WaypointType.charge,
  standby: WaypointType.standby,
  patrol: WaypointType.normal,
};

/**
 * The demo floors' first map revision: the charger, standby and patrol waypoints of the contract's
 * demo world, the edges between them (charger – standby – first patrol point, the patrol loop) and
 * the patrol route.
 */
export function demoMapDocument(): MapDocument {
  const waypoints = DEMO_WAYPOINTS.map((w, i) => ({
    id: i + 1,
    name: w.name,
    x: w.x,
    y: w.y,
    theta: w.theta,
    type: ROLE_TYPE[w.role],
  }));
  const patrol = DEMO_WAYPOINTS.flatMap((w, i) => (w.role === 'patrol' ? [i + 1] : []));
  const charger = DEMO_WAYPOINTS.findIndex((w) => w.role === 'charger') + 1;
  const standby = DEMO_WAYPOINTS.findIndex((w) => w.role === 'standby') + 1;
  const pairs: Array<[number, number]> = [
    [charger, standby],
    [standby, patrol[0]!],
    ...patrol.map((id, k): [number, number] => [id, patrol[(k + 1) % patrol.length]!]),
  ];
  return {
    waypoints,
    edges: pairs.map(([from, to], k) => ({ id: k + 1, from, to, oneWay: false, speed: 'normal', path: null })),
    routes: [{ id: 1, name: DEMO_PATROL_ROUTE, waypointIds: patrol, recorded: null }],
    noGoAreas: [],
    partialMaps: [],
  };
}

/**
 * Real maps for the demo floors (after `seedDemo`, where files can be stored): each floor without
 * an image gets the map image of the simulator's world for its map id (`demoWorldPlan`, 5 cm per
 * pixel, origin at the grid's lower-left corner, so simulated robots stand where the map says) and,
 * when it has no map yet, the demo waypoints and patrol route as its first revision.
 */
export async function seedDemoMaps(
  db: Db,
  opts: { dialect: Dialect; fileStore: FileStore; apiBase: string },
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const maps = mapRepo(db, opts.dialect);
  for (const floor of await seedRepo(db).floorsOfBuildingNamed(DEMO_BUILDING)) {
    if (floor.img) continue;
    const grid = rasterizePlan(demoWorldPlan(floorMapId(floor.id)), DEMO_MAP_RESOLUTION);
    const stored = await opts.fileStore.save({
      bytes: occupancyGridPng(grid.width, grid.height, grid.cells),
      contentType: 'image/png',
      organizationId: floor.organization_id,
      buildingId: floor.building_id,
      purpose: 'floor-map',
    });
    try {
      await db.transaction().execute(async (trx) => {
        await floorRepo(trx).update(floor.id, {
          img: `${opts.apiBase}/files/${stored.key}`,
          img_width: grid.width,
          img_height: grid.height,
          resolution: grid.resolution,
          origin_x: grid.originX,
          origin_y: grid.originY,
          updated_at: at,
        });
        if (!(await maps.current(floor.id, trx))) {
          await maps.insert(
            {
              organizationId: floor.organization_id,
              buildingId: floor.building_id,
              floorId: floor.id,
              revision: 1,
              document: demoMapDocument(),
              note: 'Demo map',
              savedBy: null,
              savedAt: at,
            },
            trx,
          );
        }
      });
    } catch (err) {
      await opts.fileStore.removeRow(stored.key).catch(() => undefined);
      await opts.fileStore.discard(stored.key);
      throw err;
    }
  }
}
