import { LoadingOverlay } from '@mantine/core';

export default function BusyOverlay({ visible }: { visible: boolean }) {
  return (
    <LoadingOverlay visible={visible} pos="fixed" zIndex={3000} overlayProps={{ blur: 1 }} data-testid="global-busy" />
  );
}
