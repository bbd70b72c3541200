import { Text, Title, type TitleProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A panel's heading (an h2 sized for a panel) with an optional dimmed line saying what the panel is for. */
export function PanelTitle({
  title,
  description,
  size = 'h4',
  descriptionSize = 'xs',
}: {
  title: ReactNode;
  description?: ReactNode;
  size?: TitleProps['size'];
  descriptionSize?: 'xs' | 'sm';
}) {
  return (
    <div>
      <Title order={2} size={size}>
        {title}
      </Title>
      {description !== undefined && (
        <Text size={descriptionSize} c="dimmed">
          {description}
        </Text>
      )}
    </div>
  );
}
