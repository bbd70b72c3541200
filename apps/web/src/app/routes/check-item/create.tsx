import { CheckItemCreatePage } from '@/features/check-items/components/check-item-page';

export function Component() {
  return <CheckItemCreatePage />;
}
