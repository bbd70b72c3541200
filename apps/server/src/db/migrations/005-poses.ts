import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Pose definitions and pose networks (docs/poses.md). Joint angles and network edges are JSON text;
 * the poses of a network are rows of `pose_network_nodes`, so "is this pose in use" is a query and the
 * database itself refuses to delete a pose that a network still holds.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('pose_defs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    /** null: usable in the whole organization. */
    .addColumn('building_id', 'integer', (c) => c.references('buildings.id'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('arm_model', 'integer', (c) => c.notNull())
    .addColumn('arm_type', 'integer', (c) => c.notNull())
    /** JSON: number[][], degrees, one array per arm. */
    .addColumn('arms', 'text', (c) => c.notNull())
    .addColumn('periscope_mm', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pose_defs_name')
    .on('pose_defs')
    .columns(['organization_id', 'arm_model', 'arm_type', 'name'])
    .unique()
    .execute();
  await db.schema.createIndex('pose_defs_building').on('pose_defs').column('building_id').execute();

  await id(db.schema.createTable('pose_networks'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.references('buildings.id'))
    .addColumn('name', 'varchar(48)', (c) => c.notNull())
    .addColumn('arm_model', 'integer', (c) => c.notNull())
    .addColumn('arm_type', 'integer', (c) => c.notNull())
    /** JSON: { from, to, bidirectional }[] between pose ids of pose_network_nodes. */
    .addColumn('edges', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pose_networks_name')
    .on('pose_networks')
    .columns(['organization_id', 'arm_model', 'arm_type', 'name'])
    .unique()
    .execute();
  await db.schema.createIndex('pose_networks_building').on('pose_networks').column('building_id').execute();

  await db.schema
    .createTable('pose_network_nodes')
    .addColumn('network_id', 'integer', (c) => c.notNull().references('pose_networks.id').onDelete('cascade'))
    .addColumn('pose_def_id', 'integer', (c) => c.notNull().references('pose_defs.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pose_network_nodes_pk', ['network_id', 'pose_def_id'])
    .execute();
  await db.schema.createIndex('pose_network_nodes_pose').on('pose_network_nodes').column('pose_def_id').execute();
}
