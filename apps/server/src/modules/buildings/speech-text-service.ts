import type { SpeechText } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { assertRowInScope, buildingInScope, recorder, requireManager } from './common.ts';
import { speechTextRepo, type SpeechTextRow } from './speech-text-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;
type SpeechTextInput = { language: SpeechText['language']; text: string };

/** Phrases a building's robots can speak (remote voice), per language. */
export function speechTextService({ db, clock, audit }: Ctx) {
  const record = recorder(audit);
  const repo = speechTextRepo(db);

  async function find(p: Principal, id: number) {
    return assertRowInScope(p, await repo.find(id), 'Speech text');
  }

  return {
    async list(p: Principal, buildingId: number): Promise<SpeechText[]> {
      await buildingInScope(db, p, buildingId);
      return (await repo.listOf(buildingId)).map(toSpeechText);
    },

    async create(p: Principal, buildingId: number, body: SpeechTextInput, ip: string): Promise<SpeechText> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const textId = await speechTextRepo(trx).insert({
          organization_id: b.organizationId,
          building_id: b.id,
          language: body.language,
          text: body.text,
          created_at: now,
          updated_at: now,
        });
        await record(p, ip, 'speech-text.create', { type: 'speech-text', id: textId }, { buildingId: b.id }, trx);
        return textId;
      });
      return toSpeechText(await find(p, id));
    },

    /** A versioned edit: based on an older version than the stored one is 409 STALE_UPDATE. */
    async update(
      p: Principal,
      id: number,
      body: SpeechTextInput & { updatedAt: string },
      ip: string,
    ): Promise<SpeechText> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        const rows = speechTextRepo(trx);
        const written = await rows.updateVersioned(id, body.updatedAt, {
          language: body.language,
          text: body.text,
          updated_at: nextVersion(clock(), body.updatedAt),
        });
        await expectVersioned(
          written,
          'speech text',
          async () => (await rows.find(id)) !== undefined,
          () => notFound('Speech text'),
        );
        await record(p, ip, 'speech-text.update', { type: 'speech-text', id }, undefined, trx);
      });
      return toSpeechText(await find(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        // Recorded before the row goes, so that the entry keeps the text.
        await record(p, ip, 'speech-text.delete', { type: 'speech-text', id }, undefined, trx);
        await speechTextRepo(trx).remove(id);
      });
    },
  };
}

function toSpeechText(r: SpeechTextRow): SpeechText {
  return {
    id: r.id,
    buildingId: r.building_id,
    language: r.language as SpeechText['language'],
    text: r.text,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
