import type { Kysely } from 'kysely';

/**
 * Indexes the lists and deletions read by: the audit log by time (system administrators see every
 * organization, newest first), a building's files, the robots of a floor and of a group, and the
 * active buildings by name (the data-management list pages through them without sorting them all).
 *
 * `files.building_id` gets no foreign key: SQLite cannot add one to an existing table without
 * rebuilding it, and rebuilding `files` would cascade into `robot_photos`. One schema serves both
 * databases, so the relation is kept by the repositories instead: a building's file rows are
 * deleted with it (`buildingRepo.releaseFilesAndOperators`), and files are stored only for a
 * building the caller can see.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_logs_at').on('audit_logs').column('at').execute();
  await db.schema.createIndex('files_building').on('files').column('building_id').execute();
  await db.schema.createIndex('robots_floor').on('robots').column('floor_id').execute();
  await db.schema.createIndex('robots_group').on('robots').column('group_id').execute();
  await db.schema.createIndex('buildings_status_name').on('buildings').columns(['status', 'name', 'id']).execute();
}
