import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import { useContract } from '../api/get-contract';
import { isContractEndingSoon } from '../contract-ending';

export function ContractBanner() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data } = useContract();
  if (!data?.contractEndAt || !isContractEndingSoon(data.contractEndAt)) return null;
  return (
    <Alert color="yellow" role="status" data-testid="contract-banner" mb="md">
      {t('contract.banner', { date: format.ymd(data.contractEndAt) })}
    </Alert>
  );
}
