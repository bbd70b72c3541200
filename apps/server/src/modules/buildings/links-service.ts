import type { BuildingLinks } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { mask, secretBox } from '../../lib/crypto.ts';
import { buildingInScope, recorder, requireManager } from './common.ts';
import { linksRepo } from './links-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'config'>;

interface LinksBody {
  tSpiderUrl: string;
  hakaruAiLoginId: string;
  hakaruAiPassword?: string | undefined;
  lilzToken?: string | undefined;
  kanriroidToken?: string | undefined;
}

const SECRETS = [
  ['hakaruAiPassword', 'hakaru_ai_password'],
  ['lilzToken', 'lilz_token'],
  ['kanriroidToken', 'kanriroid_token'],
] as const;

/** Below this length the last four characters would give away too much of the secret. */
const MASK_MIN_LENGTH = 12;

/**
 * System links of a building (T-Spider, hakaru.ai, LiLz, Kanriroid). Secrets are sealed at rest
 * (AES-256-GCM keyed from SECRET_KEY) and never returned in full: only masked, or null.
 */
export function linksService({ db, clock, audit, config }: Ctx) {
  const record = recorder(audit);
  const box = secretBox(config.secretKey);

  const masked = (sealed: string | null): string | null => {
    if (sealed == null) return null;
    try {
      const plain = box.open(sealed);
      return plain.length >= MASK_MIN_LENGTH ? mask(plain) : '••••••';
    } catch {
      // Sealed with another key: something is stored, but nothing of it can be shown.
      return '••••••';
    }
  };

  async function read(buildingId: number): Promise<BuildingLinks> {
    const row = await linksRepo(db).find(buildingId);
    return {
      tSpiderUrl: row?.t_spider_url ?? '',
      hakaruAiLoginId: row?.hakaru_ai_login_id ?? '',
      hakaruAiPassword: masked(row?.hakaru_ai_password ?? null),
      lilzToken: masked(row?.lilz_token ?? null),
      kanriroidToken: masked(row?.kanriroid_token ?? null),
      updatedAt: row?.updated_at ?? null,
    };
  }

  return {
    async get(p: Principal, buildingId: number): Promise<BuildingLinks> {
      await buildingInScope(db, p, buildingId);
      return read(buildingId);
    },

    /** Secrets: undefined keeps the stored one, '' clears it, anything else replaces it. */
    async update(p: Principal, buildingId: number, body: LinksBody, ip: string): Promise<BuildingLinks> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      const secrets: Partial<Record<(typeof SECRETS)[number][1], string | null>> = {};
      const changedSecrets: string[] = [];
      for (const [field, column] of SECRETS) {
        const value = body[field];
        if (value === undefined) continue;
        secrets[column] = value === '' ? null : box.seal(value);
        changedSecrets.push(field);
      }
      const now = clock().toISOString();
      const plain = {
        t_spider_url: body.tSpiderUrl.trim(),
        hakaru_ai_login_id: body.hakaruAiLoginId.trim(),
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await linksRepo(trx).upsert(
          {
            building_id: b.id,
            organization_id: b.organizationId,
            hakaru_ai_password: null,
            lilz_token: null,
            kanriroid_token: null,
            ...plain,
            ...secrets,
          },
          { ...plain, ...secrets },
        );
        // Which secrets changed, never their values.
        await record(p, ip, 'building-links.update', { type: 'building', id: b.id }, { secrets: changedSecrets }, trx);
      });
      return read(b.id);
    },
  };
}
