import { Paper, Title } from '@mantine/core';
import { isDataAdmin } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { ContractDetails } from '@/features/contract/components/contract-details';
import { BuildingSwitcher } from '@/features/location/components/building-switcher';
import { useSession } from '@/lib/session';

/** Organization administrators (types 2 and 9) can switch building here (product-behaviour.md). */
export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const canSwitch = session ? isDataAdmin(session.type) : false;
  return (
    <ContractDetails
      buildingSwitcher={
        canSwitch ? (
          <Paper withBorder p="md" maw={480}>
            <Title order={2} size="h4" mb="xs">
              {t('contract.switchBuilding')}
            </Title>
            <BuildingSwitcher />
          </Paper>
        ) : null
      }
    />
  );
}
