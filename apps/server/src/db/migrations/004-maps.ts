import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Floor maps (issue 5): every save of a floor's map document is a revision; the current map is the
 * highest revision. The document is JSON text (waypoints, edges, routes, no-go areas, partial
 * maps); the counts are kept beside it so the revision list never parses documents.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);
  await id(db.schema.createTable('floor_map_revisions'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('waypoint_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('edge_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('saved_by', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('saved_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('floor_map_revisions_floor_revision', ['floor_id', 'revision'])
    .execute();
  await db.schema
    .createIndex('floor_map_revisions_scope')
    .on('floor_map_revisions')
    .columns(['organization_id', 'building_id'])
    .execute();
}
