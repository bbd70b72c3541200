import type { Insertable } from 'kysely';
import type { OperatorTable } from '../../db/schema.ts';

export interface NewOperatorFields {
  organizationId: number;
  buildingId: number | null;
  loginId: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  type: number;
  flowEditRestricted?: boolean;
  /** May not export reports (general operators only). */
  exportRestricted?: boolean;
  authMode?: 'none' | 'email' | 'sms';
  /** When the account is created (UTC ISO-8601). */
  now: string;
}

/** The row of a new operator, the same whoever creates it (admin screen, import, seed). */
export function newOperatorRow(f: NewOperatorFields): Insertable<OperatorTable> {
  const loginId = f.loginId.trim().toLowerCase();
  return {
    organization_id: f.organizationId,
    building_id: f.buildingId,
    login_id: loginId,
    // The login ID is an email address; it is also where mail goes until the profile says otherwise.
    email: loginId,
    password_hash: f.passwordHash,
    first_name: f.firstName,
    last_name: f.lastName,
    type: f.type,
    flow_edit_restricted: f.flowEditRestricted ? 1 : 0,
    export_restricted: f.exportRestricted && f.type === 0 ? 1 : 0,
    language: null,
    auth_mode: f.authMode ?? 'none',
    phone: '',
    status: 1,
    failed_login_count: 0,
    locked_until: null,
    must_change_password: 0,
    password_changed_at: f.now,
    login_count: 0,
    last_login_at: null,
    deleted_at: null,
    created_at: f.now,
    updated_at: f.now,
  };
}
