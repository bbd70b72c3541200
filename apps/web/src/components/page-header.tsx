import { Button, Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface PageHeaderProps {
  title: ReactNode;
  /** The page's create button (a link to the create screen); absent for viewers who may not create. */
  create?: { to: string; label: string; testId: string } | false;
  /** Other buttons of the page (export, view switch...), before the create button. */
  children?: ReactNode;
}

/** A page's heading (its h1) with the page's own buttons (create, export...) at the other end of the row. */
export function PageHeader({ title, create, children }: PageHeaderProps) {
  return (
    <Group justify="space-between">
      <Title order={1} size="h2">
        {title}
      </Title>
      {create ? (
        <Group gap="xs">
          {children}
          <Button component={Link} to={create.to} data-testid={create.testId}>
            {create.label}
          </Button>
        </Group>
      ) : (
        children
      )}
    </Group>
  );
}
