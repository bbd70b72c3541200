import { TextInput } from '@mantine/core';

interface OptionalNumberProps {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string;
}

/** '' is null; anything else goes through Number() so the contract schema judges it. */
export function OptionalNumber({ label, value, onChange, error }: OptionalNumberProps) {
  return (
    <TextInput
      label={label}
      inputMode="decimal"
      defaultValue={value === null || Number.isNaN(value) ? '' : String(value)}
      onChange={(e) => {
        const raw = e.currentTarget.value.trim();
        onChange(raw === '' ? null : Number(raw));
      }}
      error={error}
    />
  );
}
