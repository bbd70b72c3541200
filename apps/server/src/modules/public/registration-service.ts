import type { RegistrationRequestBody } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { registrationRepo } from './registration-repo.ts';

/** /auth/register: the request is stored and mailed to every active system administrator. */
export function registrationService({
  db,
  clock,
  mailer,
  audit,
}: Pick<AppContext, 'db' | 'clock' | 'mailer' | 'audit'>) {
  const repo = registrationRepo(db);
  return {
    async request(b: RegistrationRequestBody, ip: string): Promise<void> {
      await repo.insert({
        email: b.email.toLowerCase(),
        first_name: b.firstName,
        last_name: b.lastName,
        organization_name: b.organizationName,
        message: b.message,
        ip,
        created_at: clock().toISOString(),
      });
      for (const email of await repo.systemAdminEmails()) {
        await mailer.deliver({
          channel: 'email',
          to: email,
          purpose: 'registration-request',
          organizationId: null,
          subject: `[Robot Portal] Registration request from ${b.lastName} ${b.firstName}`,
          body: `Name: ${b.lastName} ${b.firstName}\nEmail: ${b.email}\nOrganization: ${b.organizationName}\n\n${b.message}`,
        });
      }
      await audit.record({
        operatorId: null,
        organizationId: null,
        action: 'registration.request',
        targetType: 'email',
        targetId: b.email.toLowerCase().slice(0, 64),
        ip,
      });
    },
  };
}
