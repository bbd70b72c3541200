import { TextInput, type TextInputProps } from '@mantine/core';

interface NumberFieldProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: number | null;
  onChange: (value: number | null) => void;
}

/**
 * An optional decimal number: '' is null, text that is not a number stays NaN so the contract's
 * schema answers `validation.number`.
 */
export function NumberField({ value, onChange, ...rest }: NumberFieldProps) {
  return (
    <TextInput
      {...rest}
      inputMode="decimal"
      defaultValue={value === null || Number.isNaN(value) ? '' : String(value)}
      onChange={(e) => {
        const raw = e.currentTarget.value.trim();
        onChange(raw === '' ? null : Number(raw));
      }}
    />
  );
}
