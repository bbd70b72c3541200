import { localStorageColorSchemeManager, MantineProvider, createTheme } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LeaveGuardDialog } from '@/components/form-page/leave-guard-dialog';
import { GlobalBusyOverlay } from '@/components/global-busy-overlay';
import { NotificationsHost } from '@/components/notifications-host';
import { storageKeys } from '@/lib/storage';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
const colorSchemeManager = localStorageColorSchemeManager({ key: storageKeys.colorScheme });

interface AppProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Tests: no transitions, no portals. */
  env?: 'default' | 'test';
}

export function AppProvider({ queryClient, children, env = 'default' }: AppProviderProps) {
  return (
    // deduplicateCssVariables={false}: the provider writes all theme variables, so the first screen
    // does not need @mantine/core/styles/default-css-variables.css (styles/base.ts).
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      deduplicateCssVariables={false}
      env={env}
    >
      <NotificationsHost />
      <QueryClientProvider client={queryClient}>
        {children}
        <GlobalBusyOverlay />
        <LeaveGuardDialog />
      </QueryClientProvider>
    </MantineProvider>
  );
}
