import { CheckItemList } from '@/features/check-items/components/check-item-list';

export function Component() {
  return <CheckItemList />;
}
