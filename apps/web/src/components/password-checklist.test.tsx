import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadSection } from '@/lib/i18n';
import { PasswordChecklist } from './password-checklist';

const state = (rule: string) => screen.getByTestId(`password-rule-${rule}`).getAttribute('data-met');

describe('password checklist', () => {
  // Its texts are in the account section (loaded by the routes that show it).
  beforeEach(() => loadSection('account'));

  it('follows the policy rules live', () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <PasswordChecklist password="abc" />
      </MantineProvider>,
    );
    expect(state('length')).toBe('false');
    expect(state('lower')).toBe('true');
    expect(state('upper')).toBe('false');
    expect(state('threeKinds')).toBe('false');
    expect(screen.getByTestId('password-rule-length')).toHaveTextContent('10 to 32 characters (not met)');
    // One mark per rule: the list draws no bullets of its own, and English gets its own bullet.
    expect(screen.getByTestId('password-checklist')).toHaveStyle({ listStyleType: 'none' });
    expect(screen.getByTestId('password-rule-length').textContent?.startsWith('• ')).toBe(true);
    expect(screen.getByTestId('password-rule-lower').textContent?.startsWith('✓ ')).toBe(true);

    rerender(
      <MantineProvider env="test">
        <PasswordChecklist password="Abcdefgh12" />
      </MantineProvider>,
    );
    expect(state('length')).toBe('true');
    expect(state('upper')).toBe('true');
    expect(state('digit')).toBe('true');
    expect(state('special')).toBe('false');
    expect(state('threeKinds')).toBe('true');
  });
});
