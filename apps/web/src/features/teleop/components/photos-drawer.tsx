import { Anchor, Drawer, Image, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryError } from '@/components/query-error';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';
import { useRobotPhotos } from '../api/get-robot-photos';

interface PhotosDrawerProps {
  robotId: number;
  /** The robot's building: times are in its zone (the short zone name after each). */
  buildingId?: number;
  opened: boolean;
  onClose: () => void;
  /** Poll while a photo just taken is on its way from the robot. */
  waiting: boolean;
}

/** The robot's latest photos, newest first; a click opens the full picture. */
export function PhotosDrawer({ robotId, buildingId, opened, onClose, waiting }: PhotosDrawerProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const timeZone = useBuildingTimeZone(buildingId);
  const photos = useRobotPhotos(robotId, { enabled: opened, refetchInterval: opened && waiting ? 2_000 : false });
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      // Not modal: the operator keeps driving and watching while the photos are shown.
      withOverlay={false}
      trapFocus={false}
      lockScroll={false}
      closeOnClickOutside={false}
      title={t('teleopScreen.actions.photos')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {photos.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : photos.isError ? (
        <QueryError error={photos.error} onRetry={() => void photos.refetch()} />
      ) : photos.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('teleopScreen.actions.noPhotos')}
        </Text>
      ) : (
        <SimpleGrid cols={2} spacing="sm" data-testid="teleop-photo-list">
          {photos.data.map((p) => {
            const camera = t(`teleopScreen.cameras.${p.camera}`);
            const time = format.dateTime(p.takenAt, { timeZone });
            return (
              <Stack key={p.id} gap={2} data-testid="teleop-photo-item">
                <Anchor href={p.url} target="_blank" rel="noreferrer">
                  <Image
                    src={p.url}
                    alt={t('teleopScreen.actions.photoAlt', { camera, time })}
                    radius="sm"
                    fit="cover"
                    h={110}
                    loading="lazy"
                  />
                </Anchor>
                <Text size="xs">
                  {camera} · {time}
                </Text>
                {p.operatorName && (
                  <Text size="xs" c="dimmed">
                    {t('teleopScreen.actions.photoBy', { name: p.operatorName })}
                  </Text>
                )}
              </Stack>
            );
          })}
        </SimpleGrid>
      )}
    </Drawer>
  );
}
