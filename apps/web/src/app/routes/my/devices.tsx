import { DevicesList } from '@/features/my/components/devices-list';

export function Component() {
  return <DevicesList />;
}
