import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';

/** A time of something that happened in a building, in the building's zone, the zone's short name after it. */
export function BuildingDateTime({ value, buildingId }: { value: string; buildingId: number | null | undefined }) {
  const format = useFormat();
  const timeZone = useBuildingTimeZone(buildingId);
  return (
    <time dateTime={value} data-time-zone={timeZone ?? ''}>
      {format.dateTime(value, { timeZone })}
    </time>
  );
}

/**
 * "Times in Asia/Tokyo (JST)" under a screen's title: the zone its times are in. Without a zone,
 * the browser's ("Times in your time zone (Europe/Berlin (CET))").
 */
export function TimeZoneNote({ timeZone, ...props }: { timeZone?: string | null } & TextProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const zone = format.zone(timeZone);
  return (
    <Text size="sm" c="dimmed" data-testid="time-zone-note" {...props}>
      {timeZone ? t('time.zoneCaption', { zone }) : t('time.browserZoneCaption', { zone })}
    </Text>
  );
}
