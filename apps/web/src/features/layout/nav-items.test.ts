import { OperatorType } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { isLater, navGroupsFor } from './nav-items';

const keys = (type: number) => navGroupsFor(type).map((g) => [g.key, g.items.map((i) => i.key)]);

describe('navigation menu', () => {
  it('lists only entries whose screens exist, for every role', () => {
    for (const type of Object.values(OperatorType))
      for (const group of navGroupsFor(type)) for (const item of group.items) expect(isLater(item.href)).toBe(false);
  });

  it('shows a general operator the built operation screens only (commands: the read-only view)', () => {
    expect(keys(OperatorType.general)).toEqual([
      [
        'operations',
        [
          'robotControl',
          'dashboard',
          'robots',
          'flows',
          'workplans',
          'schedule',
          'reports',
          'checkItems',
          'commandMappings',
          'commands',
        ],
      ],
    ]);
    const commands = navGroupsFor(OperatorType.general)[0]?.items.find((i) => i.key === 'commands');
    expect(commands?.href).toBe('/command/list/read-only');
  });

  it('shows a system administrator the built administration and system screens', () => {
    expect(keys(OperatorType.systemAdmin)).toEqual([
      [
        'operations',
        [
          'robotControl',
          'dashboard',
          'robots',
          'flows',
          'workplans',
          'schedule',
          'reports',
          'checkItems',
          'commandMappings',
        ],
      ],
      ['administration', ['organizations', 'operators', 'auditLog', 'buildings', 'poses', 'commands', 'thresholds']],
      ['system', ['deliveries', 'termTexts', 'webhooks']],
    ]);
  });

  it('an area appears once its screen is built (an entry is hidden only while its screen is a placeholder)', () => {
    const all = navGroupsFor(OperatorType.general, () => true);
    expect(all[0]?.items.map((i) => i.key)).toContain('workplans');
    expect(isLater('/workplan/settings')).toBe(false);
    expect(isLater('/flow/settings')).toBe(false);
    expect(isLater('/report/list/1')).toBe(false);
    expect(isLater('/robot/list')).toBe(false);
    expect(isLater('/schedule/cal/week')).toBe(false);
  });
});
