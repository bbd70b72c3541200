import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';

interface OptionalNumberInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: number | null;
  onChange: (value: number | null) => void;
}

const shown = (value: number | null) => (value === null || Number.isNaN(value) ? '' : String(value));
const parsed = (text: string) => (text.trim() === '' ? null : Number(text.trim()));
const same = (a: number | null, b: number | null) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * An optional decimal number field (a react-hook-form `Controller` field): '' is null, other text goes
 * through Number(), so text that is not a number stays NaN and the contract's schema names the error.
 * What was typed stays as typed ("1.50", "abc") while it means the field's value; a new value from
 * outside (the form reset to a stored or reloaded record) is shown.
 */
export function OptionalNumberInput({ value, onChange, ...rest }: OptionalNumberInputProps) {
  const [text, setText] = useState(() => shown(value));
  // A value that the text does not mean came from outside: show it (state adjusted while rendering).
  if (!same(parsed(text), value) && text !== shown(value)) setText(shown(value));
  return (
    <TextInput
      {...rest}
      inputMode="decimal"
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        onChange(parsed(e.currentTarget.value));
      }}
    />
  );
}
