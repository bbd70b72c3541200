import type { Kysely, Selectable } from 'kysely';
import type { EditableTermKind, TermText, TermTexts, UpdateTermTextBody } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import type { Database, TermDocumentTable } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { termsRepo } from './terms-repo.ts';
import { TEMPLATE_VERSION, TERM_TEMPLATES } from './templates.ts';

const EDITABLE: readonly EditableTermKind[] = ['TOS', 'PP'];

/**
 * The placeholder the demo seed of earlier versions wrote (one English sentence repeated under
 * twelve "Article n" headings): recognized so that such a text is replaced by the template.
 */
export function isSeedPlaceholder(bodyEn: string): boolean {
  const repeated = bodyEn.split(
    'The user complies with the applicable laws and these terms and operates the robots safely.',
  );
  return repeated.length === 13 && bodyEn.includes('\n\nArticle 12\n');
}

/**
 * Inserts the template terms of service and privacy policy (version 1.0) for each kind that has no
 * document yet: every portal starts with a text its system administrators can then replace. A
 * current version that is still the old demo seed's placeholder is corrected in place to the
 * template (agreements stay: the placeholder was demo data, not a text anyone relied on). Answers
 * the kinds written.
 */
export async function ensureDefaultTerms(db: Kysely<Database>, now: Date): Promise<EditableTermKind[]> {
  const repo = termsRepo(db);
  const added: EditableTermKind[] = [];
  for (const kind of EDITABLE) {
    const t = TERM_TEMPLATES[kind];
    const at = now.toISOString();
    const current = await repo.current(kind, at);
    if (current && isSeedPlaceholder(current.body_en)) {
      await repo.updateVersioned(current.id, current.updated_at, {
        title_ja: t.titleJa,
        title_en: t.titleEn,
        body_ja: t.bodyJa,
        body_en: t.bodyEn,
        updated_at: nextVersion(now, current.updated_at ?? current.published_at),
        updated_by: null,
      });
      added.push(kind);
      continue;
    }
    if (await repo.anyOfKind(kind)) continue;
    await repo.insert({
      kind,
      version: TEMPLATE_VERSION,
      title_ja: t.titleJa,
      title_en: t.titleEn,
      body_ja: t.bodyJa,
      body_en: t.bodyEn,
      published_at: at,
      updated_at: at,
      updated_by: null,
    });
    added.push(kind);
  }
  return added;
}

/**
 * System administrators edit the terms of service and the privacy policy (both languages).
 * `publish` makes a new version: every operator's agreement is asked again (the check answers the
 * new document as pending until they agree to it). `correct` rewrites the current version in place
 * and keeps the agreements, for corrections that change nobody's rights. Both are audited.
 */
export function termsService({ db, clock, audit }: Pick<AppContext, 'db' | 'clock' | 'audit'>) {
  const toText = async (kind: EditableTermKind, r: Selectable<TermDocumentTable>): Promise<TermText> => ({
    id: r.id,
    kind,
    version: r.version,
    titleJa: r.title_ja,
    titleEn: r.title_en,
    bodyJa: r.body_ja,
    bodyEn: r.body_en,
    publishedAt: r.published_at,
    updatedAt: r.updated_at ?? r.published_at,
    agreedCount: await termsRepo(db).agreedCount(r.id),
  });

  return {
    async get(): Promise<TermTexts> {
      const now = clock().toISOString();
      const repo = termsRepo(db);
      const [tos, pp] = await Promise.all([repo.current('TOS', now), repo.current('PP', now)]);
      return { TOS: tos ? await toText('TOS', tos) : null, PP: pp ? await toText('PP', pp) : null };
    },

    async update(
      p: Principal,
      kind: EditableTermKind,
      body: UpdateTermTextBody,
      ip: string,
    ): Promise<{ status: 200 | 201; text: TermText }> {
      const now = clock();
      const id = await db.transaction().execute(async (trx) => {
        const repo = termsRepo(trx);
        const current = await repo.current(kind, now.toISOString());
        const currentVersion = current ? (current.updated_at ?? current.published_at) : null;
        if (currentVersion !== body.baseUpdatedAt) throw staleUpdate('document');
        const texts = { title_ja: body.titleJa, title_en: body.titleEn, body_ja: body.bodyJa, body_en: body.bodyEn };
        if (body.mode === 'correct') {
          if (!current || currentVersion === null) {
            throw new AppError('VALIDATION_FAILED', 'There is no version to correct; publish one', [
              { path: 'mode', message: 'validation.termsNothingToCorrect' },
            ]);
          }
          const stamp = nextVersion(now, currentVersion);
          const written = await repo.updateVersioned(current.id, current.updated_at, {
            ...texts,
            updated_at: stamp,
            updated_by: p.operatorId,
          });
          if (written !== 1) throw staleUpdate('document');
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId: p.organizationId,
              action: 'terms.update',
              targetType: 'term-document',
              targetId: current.id,
              ip,
              detail: { kind, version: current.version },
            },
            trx,
          );
          return current.id;
        }
        if (current && current.version === body.version) {
          throw new AppError('VALIDATION_FAILED', 'A new version needs a new version label', [
            { path: 'version', message: 'validation.termsVersionUnchanged' },
          ]);
        }
        const stamp = nextVersion(now, currentVersion);
        // Moves the old version on, so that a concurrent publication from it is refused as stale.
        if (current && currentVersion !== null) {
          const written = await repo.updateVersioned(current.id, current.updated_at, {
            updated_at: stamp,
            updated_by: p.operatorId,
          });
          if (written !== 1) throw staleUpdate('document');
        }
        const newId = await repo.insert({
          kind,
          version: body.version,
          ...texts,
          published_at: stamp,
          updated_at: stamp,
          updated_by: p.operatorId,
        });
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: p.organizationId,
            action: 'terms.publish',
            targetType: 'term-document',
            targetId: newId,
            ip,
            detail: { kind, version: body.version, previousVersion: current?.version ?? null },
          },
          trx,
        );
        return newId;
      });
      const row = await termsRepo(db).byId(id);
      if (!row) throw staleUpdate('document');
      return { status: body.mode === 'publish' ? 201 : 200, text: await toText(kind, row) };
    },
  };
}
