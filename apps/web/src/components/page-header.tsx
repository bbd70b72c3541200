import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page's heading (its h1) with the page's own buttons (create, export...) at the other end of the row. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Group justify="space-between">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Group>
  );
}
