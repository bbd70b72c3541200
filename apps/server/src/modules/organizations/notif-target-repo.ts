import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, NotificationTargetTable } from '../../db/schema.ts';
import { updateVersioned } from '../../db/rows.ts';

export type NotifTargetRow = Selectable<NotificationTargetTable>;

/** SQL of notification targets; every query names the organization the target must belong to. */
export function notifTargetRepo(db: Kysely<Database>) {
  return {
    one(organizationId: number, id: number) {
      return db
        .selectFrom('notification_targets')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** An organization's targets: organization-wide first, then by building. */
    list(organizationId: number) {
      return db
        .selectFrom('notification_targets')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('building_id')
        .orderBy('id')
        .execute();
    },

    insert(values: Insertable<NotificationTargetTable>) {
      return db.insertInto('notification_targets').values(values).returningAll().executeTakeFirstOrThrow();
    },

    /** Writes only while the stored version is still `basedOn`; answers the rows written (0 or 1). */
    updateVersioned: (
      organizationId: number,
      id: number,
      values: Updateable<NotificationTargetTable>,
      basedOn: string,
    ) => updateVersioned(db, 'notification_targets', id, basedOn, values, { organization_id: organizationId }),

    /** Answers whether the target was there. */
    async remove(organizationId: number, id: number): Promise<boolean> {
      const gone = await db
        .deleteFrom('notification_targets')
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    },

    /** Whether the building is one of the organization's. */
    async buildingOf(organizationId: number, buildingId: number) {
      return !!(await db
        .selectFrom('buildings')
        .select('id')
        .where('id', '=', buildingId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst());
    },

    /**
     * The language of the organization's operator whose login id (or email) is `address`
     * (case-insensitive): the chosen one, else the one last used; undefined when there is none.
     */
    async operatorLanguage(organizationId: number, address: string): Promise<string | null | undefined> {
      const a = address.trim().toLowerCase();
      const row = await db
        .selectFrom('operators')
        .select(['language', 'last_language'])
        .where('organization_id', '=', organizationId)
        .where((eb) => eb.or([eb(eb.fn('lower', ['login_id']), '=', a), eb(eb.fn('lower', ['email']), '=', a)]))
        .orderBy('id')
        .executeTakeFirst();
      return row ? (row.language ?? row.last_language) : undefined;
    },

    async buildingName(buildingId: number) {
      const b = await db.selectFrom('buildings').select('name').where('id', '=', buildingId).executeTakeFirst();
      return b?.name ?? null;
    },
  };
}
