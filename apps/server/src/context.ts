import type { Access } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import type { Dialect } from './db/migrator.ts';
import type { Clock } from './lib/time.ts';
import type { Audit } from './services/audit.ts';
import type { FileStore } from './services/file-store.ts';
import type { Mailer } from './services/mailer.ts';
import type { ReadCaches } from './services/read-cache.ts';
import type { RobotLink } from './modules/robot-link/types.ts';

/** What services receive; each takes only the parts it uses. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  dbVersion: () => Promise<string>;
  clock: Clock;
  audit: Audit;
  mailer: Mailer;
  fileStore: FileStore;
  caches: ReadCaches;
  robotLink: RobotLink;
  /** Changes of an operator's rights or sessions, heard by open WebSockets (on every server instance). */
  operatorEvents: OperatorEvents;
  log: FastifyBaseLogger;
}

/**
 * "This operator changed": role, building, organization, status, deletion, sign-out or password.
 * Services call `changed` after the change is committed; the realtime gateway re-checks the
 * operator's open sockets at once.
 */
export interface OperatorEvents {
  changed(operatorId: number): void;
  on(listener: (operatorId: number) => void): () => void;
}

/** The signed-in operator, derived from the session token on every request. */
export interface Principal {
  sessionId: number;
  operatorId: number;
  organizationId: number;
  buildingId: number | null;
  type: number;
  language: 'ja' | 'en' | null;
  /** The language of the operator's latest signed-in request (absent where not read). */
  lastLanguage?: 'ja' | 'en' | null;
  email: string;
  firstName: string;
  lastName: string;
  labsEnabled: boolean;
}

/** Who may call a route: anyone, a pending two-step session, any operator, administrators, system admins. */
export type { Access } from '@portal/contract';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    apiRoutes: Array<{ method: string; url: string; access: string }>;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Reachable while the operator must change their password (profile, password, logout, ...). */
    allowDuringPasswordChange?: boolean;
  }
}
