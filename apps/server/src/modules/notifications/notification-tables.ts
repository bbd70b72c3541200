import type { Generated, Selectable } from 'kysely';

/** The notification engine's tables (migration 027), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    notification_events: NotificationEventTable;
    notification_deliveries: NotificationDeliveryTable;
    notification_delivery_events: NotificationDeliveryEventTable;
    notification_marks: NotificationMarkTable;
  }
  interface OutboxTable {
    /** The notification delivery this attempt belongs to (migration 027); null for other mail. */
    notification_delivery_id: Generated<number | null>;
  }
}

export interface NotificationEventTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  robot_id: number | null;
  kind: string;
  level: number;
  group_key: string;
  dedupe_key: string | null;
  params: string;
  occurred_at: string;
  created_at: string;
}
export type NotificationEventRow = Selectable<NotificationEventTable>;

export interface NotificationDeliveryTable {
  id: Generated<number>;
  organization_id: number;
  /** `target` (a notification target) or `webhook` (target_id is then the webhook's id; migration 033). */
  channel: Generated<string>;
  target_id: number;
  group_key: string;
  status: string;
  event_count: number;
  attempts: number;
  due_at: string;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
export type NotificationDeliveryRow = Selectable<NotificationDeliveryTable>;

export interface NotificationDeliveryEventTable {
  delivery_id: number;
  event_id: number;
}

export interface NotificationMarkTable {
  robot_id: number;
  mark: string;
  value: string;
  at: string;
}
