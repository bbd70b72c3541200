/**
 * English texts of the account screens (my profile, password, devices, messages, audit log,
 * announcements, versions, contract), the system delivery log and the initial data import: a
 * lazily loaded section (lib/i18n.ts `loadSection('account')`). Top-level keys must not exist in ../en.ts.
 */
export const accountEn = {
  initData: {
    title: 'Initial data import',
    intro:
      'Import one organization with its buildings, floors and operators from a JSON file. The import is all or nothing.',
    file: 'JSON file',
    downloadExample: 'Download an example file',
    notJson: 'The file is not valid JSON.',
    problems: 'Problems found ({{count}})',
    preview: 'Preview',
    organization: 'Organization',
    buildings: 'Buildings',
    floors: 'Floors',
    operatorsCount: 'Operators: {{count}}',
    submit: 'Import',
    done: 'Imported: organization #{{organizationId}}, {{buildings}} buildings, {{floors}} floors, {{operators}} operators.',
    forbidden: 'Only system administrators can import initial data.',
    duplicateDetails: 'Already registered:',
  },
  my: {
    profile: {
      title: 'Profile',
      lastName: 'Last name',
      firstName: 'First name',
      email: 'Email address',
      phone: 'Phone number',
      language: 'Language',
      authMode: 'Two-step authentication',
      authModes: { none: 'Off', email: 'Code by email', sms: 'Code by SMS' },
      organization: 'Organization',
      building: 'Building',
      loginId: 'Login ID',
      usage: 'Sign-ins: {{logins}} / Active sessions: {{sessions}}',
      stale: 'This profile was changed elsewhere. Reload it and apply your change again.',
    },
    chpwd: {
      title: 'Change password',
      oldPassword: 'Current password',
      newPassword: 'New password',
      confirmPassword: 'New password (again)',
      submit: 'Change password',
      rulesTitle: 'Password rules',
      rules: {
        length: '10 to 32 characters',
        threeKinds: 'At least three of: uppercase, lowercase, digit, symbol',
        upper: 'Uppercase letter',
        lower: 'Lowercase letter',
        digit: 'Digit',
        special: 'Symbol',
      },
      met: 'met',
      notMet: 'not met',
      done: 'Your password was changed. All your other sessions were signed out.',
    },
    devices: {
      title: 'Signed-in devices',
      device: 'Device',
      ip: 'IP address',
      createdAt: 'Signed in',
      lastUsedAt: 'Last used',
      current: 'This device',
      revoke: 'Sign out',
      revokeOthers: 'Sign out all other devices',
      revoked: 'The device was signed out.',
    },
    messages: {
      title: 'Messages',
      markRead: 'Mark as read',
      unread: 'Unread',
    },
    auditLogs: {
      title: 'Activity log',
      at: 'Date and time',
      action: 'Action',
      target: 'Target',
      ip: 'IP address',
    },
    announcements: { title: 'Announcements' },
    versions: {
      title: 'Versions',
      web: 'Web app',
      app: 'Application',
      server: 'Server',
      api: 'API',
      node: 'Node.js',
      database: 'Database',
    },
  },
  deliveries: {
    title: 'Mail and SMS log',
    createdAt: 'Date and time',
    channel: 'Channel',
    recipient: 'Recipient',
    subject: 'Subject',
    purpose: 'Purpose',
    status: 'Status',
    statuses: { stored: 'Stored', sent: 'Sent', failed: 'Failed' },
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type AccountMessages = DeepStrings<typeof accountEn>;
