import { localStorageColorSchemeManager, MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { GlobalBusyOverlay } from '@/components/global-busy-overlay';
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
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="light" env={env}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        {children}
        <GlobalBusyOverlay />
      </QueryClientProvider>
    </MantineProvider>
  );
}
