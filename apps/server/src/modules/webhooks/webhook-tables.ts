import type { Generated } from 'kysely';

/** The table of webhooks (migration 030), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    webhooks: WebhookTable;
  }
}

export interface WebhookTable {
  id: Generated<number>;
  name: string;
  /** 0 general, 1 Slack, 2 T-Spider. */
  type: number;
  /** Sealed (lib/crypto.ts secretBox). */
  url: string;
  url_host: string;
  /** none, password, token, custom. */
  auth_type: string;
  auth_username: string;
  /** Sealed password, token or custom header value; null for none. */
  auth_secret: string | null;
  custom_header_name: string;
  /** Sealed. */
  signing_secret: string;
  /** 0 disabled, 1 enabled, 9 error. */
  status: number;
  /** The minimum notification level it receives (0, 5, 9; migration 033). */
  level: Generated<number>;
  /** The notification kinds it receives, comma-separated; null: every kind (migration 035). */
  event_kinds: string | null;
  consecutive_failures: Generated<number>;
  last_error: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
}
