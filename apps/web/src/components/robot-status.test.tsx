import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyLanguage, loadSection } from '@/lib/i18n';
import { StatusBadge } from './robot-status';

describe('robot status', () => {
  // Its texts are in the robots section (loaded by the routes that show it).
  beforeEach(() => loadSection('robots'));

  it('marks an online robot that stopped reporting, in both languages', async () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <StatusBadge label="available" />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-status')).toHaveTextContent('Available');
    expect(screen.queryByTestId('robot-not-reporting')).toBeNull();

    rerender(
      <MantineProvider env="test">
        <StatusBadge label="available" notReporting />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-status')).toHaveTextContent('Available');
    expect(screen.getByTestId('robot-not-reporting')).toHaveTextContent('Not reporting');

    await applyLanguage('ja');
    await loadSection('robots');
    rerender(
      <MantineProvider env="test">
        <StatusBadge label="available" notReporting />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-not-reporting')).toHaveTextContent('応答なし');
    await applyLanguage('en');
  });
});
