import { Button, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { isAdmin } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { useCurrentBuilding } from '../use-current-building';
import { BuildingSwitcher } from './building-switcher';

/** Header button "Change location": admins switch building, general operators see theirs read-only. */
export function LocationButton() {
  const { t } = useTranslation();
  const session = useSession();
  const [opened, { open, close }] = useDisclosure(false);
  const { building } = useCurrentBuilding();
  const name = building?.name ?? t('location.none');
  const admin = session ? isAdmin(session.type) : false;

  return (
    <>
      <Button
        variant="default"
        size="xs"
        onClick={open}
        aria-label={`${t('location.change')}: ${name}`}
        data-testid="location-button"
        maw={260}
      >
        <Text span size="xs" truncate>
          {name}
        </Text>
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('location.dialogTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {admin ? (
          <BuildingSwitcher onDone={close} />
        ) : (
          <>
            <Text size="sm">{t('location.readOnly')}</Text>
            <Text fw={700} mt="sm" data-testid="location-readonly">
              {name}
            </Text>
          </>
        )}
      </Modal>
    </>
  );
}
