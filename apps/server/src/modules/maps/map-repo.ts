import type { MapDocument } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/migrator.ts';
import type { Database } from '../../db/schema.ts';

/** A stored revision with the name of who saved it. */
export interface RevisionRow {
  revision: number;
  document: string;
  note: string;
  savedAt: string;
  savedBy: string | null;
  waypoints: number;
  edges: number;
}

export interface NewRevision {
  organizationId: number;
  buildingId: number;
  floorId: number;
  revision: number;
  document: MapDocument;
  note: string;
  savedBy: number | null;
  savedAt: string;
}

export type NewRevisionText = Omit<NewRevision, 'document'> & {
  /** The document's JSON text, as stored and answered. */
  documentText: string;
  waypoints: number;
  edges: number;
};

/** SQL of floor map revisions. Callers check the floor's scope first (the floor row carries it). */
export function mapRepo(db: Kysely<Database>, dialect: Dialect) {
  const revisions = (trx: Kysely<Database>, floorId: number) =>
    trx
      .selectFrom('floor_map_revisions as m')
      .leftJoin('operators as o', 'o.id', 'm.saved_by')
      .where('m.floor_id', '=', floorId)
      .select([
        'm.revision',
        'm.note',
        'm.saved_at as savedAt',
        'm.waypoint_count as waypoints',
        'm.edge_count as edges',
        'o.last_name',
        'o.first_name',
      ]);

  const named = <R extends { last_name: string | null; first_name: string | null }>(r: R) => {
    const { last_name, first_name, ...rest } = r;
    return { ...rest, savedBy: last_name === null ? null : `${last_name} ${first_name ?? ''}`.trim() };
  };

  /** `insert` of a document already written as text (prepared on the worker thread). */
  async function insertText(r: NewRevisionText, trx: Kysely<Database> = db): Promise<void> {
    await trx
      .insertInto('floor_map_revisions')
      .values({
        organization_id: r.organizationId,
        building_id: r.buildingId,
        floor_id: r.floorId,
        revision: r.revision,
        document: r.documentText,
        waypoint_count: r.waypoints,
        edge_count: r.edges,
        note: r.note,
        saved_by: r.savedBy,
        saved_at: r.savedAt,
      })
      .execute();
  }

  return {
    /**
     * Within a write's transaction: writers of one floor queue on its row (PostgreSQL; SQLite runs
     * one transaction at a time). False when the floor is gone.
     */
    async lockFloor(floorId: number, trx: Kysely<Database>): Promise<boolean> {
      if (dialect !== 'postgres') return true;
      const row = await trx.selectFrom('floors').select('id').where('id', '=', floorId).forUpdate().executeTakeFirst();
      return row !== undefined;
    },

    /** The current (highest) revision with its document, or undefined when the map was never saved. */
    async current(floorId: number, trx: Kysely<Database> = db): Promise<RevisionRow | undefined> {
      const row = await revisions(trx, floorId)
        .select('m.document')
        .orderBy('m.revision', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? named(row) : undefined;
    },

    /** The current revision's number and save time, without its document (a write's check). */
    async head(
      floorId: number,
      trx: Kysely<Database> = db,
    ): Promise<{ revision: number; savedAt: string } | undefined> {
      return trx
        .selectFrom('floor_map_revisions')
        .where('floor_id', '=', floorId)
        .select(['revision', 'saved_at as savedAt'])
        .orderBy('revision', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async revision(floorId: number, revision: number): Promise<RevisionRow | undefined> {
      const row = await revisions(db, floorId)
        .select('m.document')
        .where('m.revision', '=', revision)
        .executeTakeFirst();
      return row ? named(row) : undefined;
    },

    /** One revision without its document (the answer of a save, whose document is in hand). */
    async summary(floorId: number, revision: number): Promise<Omit<RevisionRow, 'document'> | undefined> {
      const row = await revisions(db, floorId).where('m.revision', '=', revision).executeTakeFirst();
      return row ? named(row) : undefined;
    },

    /** Newest first, without documents. */
    async list(floorId: number, limit: number): Promise<Array<Omit<RevisionRow, 'document'>>> {
      const rows = await revisions(db, floorId).orderBy('m.revision', 'desc').limit(limit).execute();
      return rows.map(named);
    },

    /** Fails with a unique violation when that revision exists (someone saved at the same time). */
    async insert(r: NewRevision, trx: Kysely<Database> = db): Promise<void> {
      const { document, ...rest } = r;
      await insertText(
        {
          ...rest,
          documentText: JSON.stringify(document),
          waypoints: document.waypoints.length,
          edges: document.edges.length,
        },
        trx,
      );
    },

    insertText,
  };
}
