/**
 * English texts of the threshold rule screens (`/threshold/*`): a lazily loaded section (lib/i18n.ts
 * `loadSection('thresholds')`). Top-level keys must not exist in ../en.ts. `thresholdValidation`
 * holds the messages of the contract's threshold schemas (packages/contract/src/thresholds.ts).
 */
export const thresholdsEn = {
  thresholds: {
    listTitle: 'Threshold rules',
    logTitle: 'Threshold log',
    tabs: { rules: 'Rules', log: 'Log' },
    create: 'New threshold rule',
    createTitle: 'New threshold rule',
    back: 'Back to the threshold rules',
    backToList: 'Back to the list',
    readOnly:
      'Threshold rules are managed by administrators. To register, update or delete a rule, contact your organization administrator.',
    search: 'Search',
    searchHint: 'Rule name',
    all: 'All',
    clear: 'Clear filters',
    empty: 'No threshold rules yet.',
    noMatch: 'No threshold rule matches the filters.',
    total: '{{count}} rules',
    columns: {
      name: 'Name',
      level: 'Notification level',
      status: 'Status',
      conditions: 'Conditions',
      updatedAt: 'Updated',
    },
    fields: {
      name: 'Name',
      description: 'Description',
      level: 'Notification level',
      status: 'Enabled',
      conditions: 'Conditions',
      conditionsHint:
        'A reading that meets any condition breaches the rule and raises a notification at the rule’s level.',
    },
    statuses: { '0': 'Disabled', '1': 'Enabled' },
    condition: {
      judgment: 'Judgment condition',
      target: 'Target value',
      min: 'Minimum',
      max: 'Maximum',
      add: 'Add condition',
      remove: 'Remove',
      removeLabel: 'Remove condition {{number}}',
      rowLabel: 'Condition {{number}}',
      none: 'No conditions yet: add at least one.',
      judgments: {
        range: 'Outside the range (min–max)',
        gt: 'Greater than target (>)',
        gte: 'Target or greater (≥)',
        lt: 'Less than target (<)',
        lte: 'Target or less (≤)',
        eq: 'Equal to target (=)',
        ne: 'Not equal to target (≠)',
      },
      summary: {
        range: 'outside {{min}} – {{max}}',
        gt: '> {{target}}',
        gte: '≥ {{target}}',
        lt: '< {{target}}',
        lte: '≤ {{target}}',
        eq: '= {{target}}',
        ne: '≠ {{target}}',
      },
    },
    created: 'Threshold rule registered',
    saved: 'Threshold rule saved',
    delete: 'Delete',
    deleteTitle: 'Delete this threshold rule?',
    deleteBody: '“{{name}}” is deleted. Its log lines stay and keep its name.',
    deleted: 'Threshold rule deleted',
    inUse: 'This rule is not deleted: these check items use it. Choose another rule for them first.',
    log: {
      columns: {
        at: 'Time',
        rule: 'Rule',
        checkItem: 'Check item',
        value: 'Value',
        condition: 'Breached condition',
        level: 'Level',
        notified: 'Notified',
        photo: 'Photo',
      },
      rule: 'Rule',
      level: 'Level',
      from: 'From',
      to: 'To',
      empty: 'No breaches recorded.',
      noMatch: 'No breach matches the filters.',
      total: '{{count}} breaches',
      nobody: 'Nobody',
      deletedRule: '{{name}} (deleted)',
      openPhoto: 'Open the photo',
      photoAlt: 'Photo of {{name}}',
    },
  },
  thresholdValidation: {
    conditionsRequired: 'Add at least one condition',
    finite: 'Enter a finite number',
    valueRange: 'Enter a value between -1,000,000,000 and 1,000,000,000',
    minMax: 'The maximum must not be less than the minimum',
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type ThresholdsMessages = DeepStrings<typeof thresholdsEn>;
