import type { SpeechText } from '@portal/contract';
import type { Selectable } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { SpeechTextTable } from '../../db/schema.ts';
import { assertRowInScope, buildingInScope, nextVersion, recorder, requireManager } from './common.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;
type SpeechTextInput = { language: SpeechText['language']; text: string };

/** Phrases a building's robots can speak (remote voice), per language. */
export function speechTextService({ db, clock, audit }: Ctx) {
  const record = recorder(audit);

  async function find(p: Principal, id: number) {
    const row = await db.selectFrom('speech_texts').selectAll().where('id', '=', id).executeTakeFirst();
    return assertRowInScope(p, row, 'Speech text');
  }

  return {
    async list(p: Principal, buildingId: number): Promise<SpeechText[]> {
      await buildingInScope(db, p, buildingId);
      const rows = await db
        .selectFrom('speech_texts')
        .selectAll()
        .where('building_id', '=', buildingId)
        .orderBy('id')
        .execute();
      return rows.map(toSpeechText);
    },

    async create(p: Principal, buildingId: number, body: SpeechTextInput, ip: string): Promise<SpeechText> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('speech_texts')
          .values({
            organization_id: b.organizationId,
            building_id: b.id,
            language: body.language,
            text: body.text,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await record(p, ip, 'speech-text.create', { type: 'speech-text', id: row.id }, { buildingId: b.id }, trx);
        return row.id;
      });
      return toSpeechText(await find(p, id));
    },

    async update(p: Principal, id: number, body: SpeechTextInput, ip: string): Promise<SpeechText> {
      requireManager(p);
      const current = await find(p, id);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('speech_texts')
          .set({ language: body.language, text: body.text, updated_at: nextVersion(clock(), current.updated_at) })
          .where('id', '=', id)
          .execute();
        await record(p, ip, 'speech-text.update', { type: 'speech-text', id }, undefined, trx);
      });
      return toSpeechText(await find(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('speech_texts').where('id', '=', id).execute();
        await record(p, ip, 'speech-text.delete', { type: 'speech-text', id }, undefined, trx);
      });
    },
  };
}

function toSpeechText(r: Selectable<SpeechTextTable>): SpeechText {
  return {
    id: r.id,
    buildingId: r.building_id,
    language: r.language as SpeechText['language'],
    text: r.text,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
