import { Alert, Button, FileButton, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import type { FloorDetail } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteMapImage } from '../api/delete-map-image';
import { useUploadMapImage } from '../api/upload-map-image';
import { checkMapImage, MAP_IMAGE_MAX_MB, sizeInMb } from '../map-image-check';
import { ConfirmDialog } from '@/components/confirm-dialog';

/** The floor's map image: preview with its pixel size, upload (checked in the browser first), removal. */
export function MapImage({ floor, canManage }: { floor: FloorDetail; canManage: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const upload = useUploadMapImage(floor.id);
  const remove = useDeleteMapImage(floor.id, floor.buildingId);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const choose = (file: File | null) => {
    upload.reset();
    setProblem(null);
    if (!file) return;
    const check = checkMapImage(file);
    if (check === 'wrongType') return setProblem(t('floors.image.wrongType', { name: file.name }));
    if (check === 'tooLarge')
      return setProblem(
        t('floors.image.tooLarge', { name: file.name, size: sizeInMb(file.size), max: MAP_IMAGE_MAX_MB }),
      );
    upload.mutate(file, { onSuccess: () => showNotification({ color: 'green', message: t('floors.image.uploaded') }) });
  };

  const serverProblem = (() => {
    if (!upload.isError) return null;
    const e = upload.error;
    if (isApiError(e) && e.code === 'PAYLOAD_TOO_LARGE')
      return t('floors.image.serverTooLarge', { max: MAP_IMAGE_MAX_MB });
    if (isApiError(e) && e.code === 'UNSUPPORTED_FILE_TYPE') return t('floors.image.serverType');
    return errorText(e);
  })();

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="map-image-title">
      <Stack>
        <Title order={2} size="h3" id="map-image-title">
          {t('floors.image.title')}
        </Title>
        {(problem ?? serverProblem) && (
          <Alert color="red" role="alert" data-testid="map-image-error">
            {problem ?? serverProblem}
          </Alert>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            {errorText(remove.error)}
          </Alert>
        )}
        {floor.img ? (
          <Stack gap={4}>
            <Image
              src={floor.img}
              alt={t('floors.image.alt', { name: floor.name })}
              fit="contain"
              mah={420}
              w="auto"
              maw="100%"
              radius="sm"
              bd="1px solid var(--mantine-color-default-border)"
              data-testid="map-image-preview"
            />
            {floor.imgWidth !== null && floor.imgHeight !== null && (
              <Text size="sm" c="dimmed" data-testid="map-image-size">
                {t('floors.image.size', { width: floor.imgWidth, height: floor.imgHeight })}
              </Text>
            )}
          </Stack>
        ) : (
          <Text c="dimmed">{t('floors.image.none')}</Text>
        )}
        {canManage && (
          <Group>
            <FileButton onChange={choose} accept="image/png,image/jpeg">
              {(props) => (
                <Button {...props} loading={upload.isPending} data-testid="map-image-choose">
                  {floor.img ? t('floors.image.replace') : t('floors.image.choose')}
                </Button>
              )}
            </FileButton>
            {floor.img && (
              <Button variant="light" color="red" onClick={() => setConfirming(true)}>
                {t('floors.image.remove')}
              </Button>
            )}
          </Group>
        )}
        {canManage && (
          <Text size="sm" c="dimmed" data-testid="map-image-resolution-hint">
            {t('floors.image.resolutionDefault')}
          </Text>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('floors.image.removeTitle')}
        confirmLabel={t('floors.image.remove')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSettled: () => setConfirming(false),
            onSuccess: () => showNotification({ color: 'green', message: t('floors.image.removed') }),
          })
        }
      >
        {t('floors.image.removeBody')}
      </ConfirmDialog>
    </Paper>
  );
}
