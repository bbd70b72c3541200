import type { RegistrationRequestBody } from '@portal/contract';
import type { AppContext } from '../../context.ts';

/** /auth/register: the request is stored and mailed to every active system administrator. */
export function registrationService({
  db,
  clock,
  mailer,
  audit,
}: Pick<AppContext, 'db' | 'clock' | 'mailer' | 'audit'>) {
  return {
    async request(b: RegistrationRequestBody, ip: string): Promise<void> {
      await db
        .insertInto('registration_requests')
        .values({
          email: b.email.toLowerCase(),
          first_name: b.firstName,
          last_name: b.lastName,
          organization_name: b.organizationName,
          message: b.message,
          ip,
          created_at: clock().toISOString(),
        })
        .execute();
      const admins = await db
        .selectFrom('operators')
        .select(['email'])
        .where('type', '=', 9)
        .where('deleted_at', 'is', null)
        .where('status', '=', 1)
        .execute();
      for (const a of admins) {
        await mailer.deliver({
          channel: 'email',
          to: a.email,
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
