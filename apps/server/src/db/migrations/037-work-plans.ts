import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Work plans (issue 14; docs/api-work-plans.md): step lists the operator walks through on the
 * operator screen. A work plan belongs to a building and floor (the organization kept on the row
 * for tenancy); `definition` is the versioned JSON of the contract (work-plans.ts), `template_id`
 * the template it was made from (a deleted template leaves it without one). Status 0 disabled,
 * 1 enabled; type 0 elevator operation, 1 general purpose. `updated_at` is the version.
 *
 * Templates: `organization_id` null for the ones every organization sees; `builtin_key` names the
 * templates the portal ships (stored here: elevator ride, door pass, meter check by hand), whose
 * names the web shows in the reader's language.
 *
 * Runs: one row per work plan being walked through on a robot (`status` 'open' or 'closed'), the
 * step the operator is at and the steps confirmed (JSON array of step ids); `flow_run_id` is the
 * flow run that launched it and waits for it to close (none when started from the operator screen).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('work_plan_templates'))
    .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('builtin_key', 'varchar(32)')
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plan_templates_org_name')
    .on('work_plan_templates')
    .columns(['organization_id', 'name', 'id'])
    .execute();

  await id(db.schema.createTable('work_plans'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.references('work_plan_templates.id').onDelete('set null'))
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('icon', 'varchar(16)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plans_org_name')
    .on('work_plans')
    .columns(['organization_id', 'name', 'id'])
    .execute();
  await db.schema
    .createIndex('work_plans_floor')
    .on('work_plans')
    .columns(['building_id', 'floor_id', 'status', 'id'])
    .execute();

  await id(db.schema.createTable('work_plan_runs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('work_plan_id', 'integer', (c) => c.notNull().references('work_plans.id').onDelete('cascade'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('flow_run_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('current_step', 'integer', (c) => c.notNull())
    /** JSON array of the confirmed step ids. */
    .addColumn('done_steps', 'text', (c) => c.notNull())
    .addColumn('started_by', 'integer')
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('closed_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plan_runs_robot')
    .on('work_plan_runs')
    .columns(['robot_id', 'status', 'id'])
    .execute();

  const now = new Date().toISOString();
  const templates = db as unknown as Kysely<{
    work_plan_templates: {
      organization_id: number | null;
      builtin_key: string | null;
      name: string;
      description: string;
      type: number;
      definition: string;
      created_at: string;
      updated_at: string;
    };
  }>;
  for (const t of SHIPPED_TEMPLATES)
    await templates
      .insertInto('work_plan_templates')
      .values({
        organization_id: null,
        builtin_key: t.key,
        name: t.name,
        description: t.description,
        type: t.type,
        definition: t.definition,
        created_at: now,
        updated_at: now,
      })
      .execute();
}

/**
 * The templates shipped with this migration, as they were when it was written (a migration stays as
 * it was run: it does not read the contract's BUILTIN_WORK_PLAN_TEMPLATES, which may change later;
 * a later change of a shipped template needs a migration of its own). `definition` is the JSON text.
 */
const SHIPPED_TEMPLATES: ReadonlyArray<{
  key: string;
  name: string;
  description: string;
  type: number;
  definition: string;
}> = [
  {
    key: 'elevatorRide',
    name: 'Elevator ride with button press',
    description: 'Go to the elevator hall, call the car with the right arm, ride and press the floor button.',
    type: 0,
    definition:
      '{"version":1,"steps":[{"id":"toHall","title":"Go to the elevator hall","type":"move","main":{"kind":"moveToWaypoint","waypointId":null},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}},{"id":"pressCall","title":"Press the call button","type":"pressRight","main":{"kind":"pressButton","target":"call"},"auxiliary":[{"kind":"speak","id":"sayRide","text":"I am going to ride the elevator.","language":"en"}],"before":{"pose":{"kind":"pose","id":"poseCall","target":"gimbal","pan":0,"tilt":-20}},"after":{"waitSeconds":5}},{"id":"board","title":"Board the car","type":"manual","main":{"kind":"manualCheck","instruction":"Check the door is open and the car is empty enough, then drive in."},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}},{"id":"pressFloor","title":"Press the floor button","type":"pressRight","main":{"kind":"pressButton","target":"floor"},"auxiliary":[],"before":{"pose":{"kind":"pose","id":"poseFloor","target":"gimbal","pan":0,"tilt":-20}},"after":{"waitSeconds":10}},{"id":"alight","title":"Get off at the floor","type":"manual","main":{"kind":"manualCheck","instruction":"Check the car stopped at the floor and drive out."},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}}]}',
  },
  {
    key: 'doorPass',
    name: 'Door pass',
    description: 'Go to the door, press the door opener with the left arm and pass when it is open.',
    type: 1,
    definition:
      '{"version":1,"steps":[{"id":"toDoor","title":"Go to the door","type":"move","main":{"kind":"moveToWaypoint","waypointId":null},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}},{"id":"pressOpener","title":"Press the door opener","type":"pressLeft","main":{"kind":"pressButton","target":"door"},"auxiliary":[{"kind":"lights","id":"lamp","patrolLamp":true}],"before":{"pose":null},"after":{"waitSeconds":3}},{"id":"pass","title":"Pass the door","type":"manual","main":{"kind":"manualCheck","instruction":"Check the door is open and drive through."},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}}]}',
  },
  {
    key: 'meterByHand',
    name: 'Meter check by hand',
    description: 'Go to the meter, take a photo and read the value by eye.',
    type: 1,
    definition:
      '{"version":1,"steps":[{"id":"toMeter","title":"Go to the meter","type":"move","main":{"kind":"moveToWaypoint","waypointId":null},"auxiliary":[],"before":{"pose":null},"after":{"waitSeconds":0}},{"id":"read","title":"Read the meter","type":"manual","main":{"kind":"manualCheck","instruction":"Read the value on the meter and note anything unusual."},"auxiliary":[{"kind":"takePhoto","id":"photo","camera":"v1","resolution":"1080p","saveAsTaskImage":false}],"before":{"pose":{"kind":"pose","id":"poseMeter","target":"gimbal","pan":0,"tilt":-20}},"after":{"waitSeconds":0}}]}',
  },
];
