import type { Generated } from 'kysely';

/**
 * The activity log's tables (migration 017), merged into the one `Database` interface of
 * db/schema.ts by declaration merging (kept here, beside the module, as the module's own part).
 */
declare module '../../db/schema.ts' {
  interface Database {
    robot_activity: RobotActivityTable;
    robot_activity_marks: RobotActivityMarkTable;
  }
}

export interface RobotActivityTable {
  id: Generated<number>;
  robot_id: number;
  organization_id: number;
  /** The robot's building when it happened. */
  building_id: number;
  at: string;
  /** Syslog level 0 (emergency) to 7 (debug). */
  level: number;
  kind: string;
  code: string;
  /** JSON object of the text's parameters. */
  params: string;
}

/** A robot's last known condition per mark (connection, emergencyStop, error:{type}, battery, osVersion). */
export interface RobotActivityMarkTable {
  robot_id: number;
  mark: string;
  value: string;
  /** When the value was set: the robot's own timestamp of the message where it has one. */
  at: string;
}
