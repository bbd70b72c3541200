import { Select, type SelectProps } from '@mantine/core';
import { isPrefectureCode, PREFECTURE_CODES, timeZoneNames } from '@portal/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The name of a stored prefecture in the UI language ('13' → 東京都 / Tokyo); text stored before
 * prefectures became a list is shown as it was written.
 */
export function usePrefectureName(): (value: string | null | undefined) => string {
  const { t } = useTranslation();
  return (value) => (!value ? '' : isPrefectureCode(value) ? t(`prefectures.${value}` as 'prefectures.01') : value);
}

type FieldProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  /** '' for none. */
  value: string;
  onChange: (value: string) => void;
};

/**
 * One of the 47 prefectures by its code, named in the UI language and searchable. A stored value
 * that is no prefecture stays visible (marked) until another is chosen; the form's schema refuses
 * to save it.
 */
export function PrefectureSelect({ value, onChange, description, ...props }: FieldProps) {
  const { t } = useTranslation();
  const legacy = value !== '' && !isPrefectureCode(value);
  const data = useMemo(
    () => [
      ...(legacy ? [{ value, label: t('places.notAPrefecture', { value }) }] : []),
      ...PREFECTURE_CODES.map((code) => ({ value: code, label: t(`prefectures.${code}` as 'prefectures.01') })),
    ],
    [legacy, value, t],
  );
  return (
    <Select
      searchable
      clearable
      placeholder={t('places.choosePrefecture')}
      nothingFoundMessage={t('places.noMatch')}
      autoComplete="off"
      {...props}
      description={legacy ? t('places.legacyPrefecture', { value }) : description}
      data={data}
      value={value === '' ? null : value}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}

/** An IANA time zone of the browser's list, searchable ('tokyo' finds Asia/Tokyo). */
export function TimeZoneSelect({ value, onChange, ...props }: FieldProps) {
  const { t } = useTranslation();
  const data = useMemo(() => {
    const names = timeZoneNames();
    // A stored zone this browser does not list stays shown (the server accepted it).
    return value && !names.includes(value) ? [value, ...names] : [...names];
  }, [value]);
  return (
    <Select
      searchable
      placeholder={t('places.searchTimeZone')}
      label={t('places.timeZone')}
      limit={100}
      autoComplete="off"
      {...props}
      data={data}
      value={value === '' ? null : value}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}
