import { NativeSelect } from '@mantine/core';
import { floorLabel } from '@portal/contract';

/** The floor numbers the contract allows (index -20..200): 200F at the top down to B21. */
export const FLOOR_INDEXES: readonly number[] = Array.from({ length: 221 }, (_, i) => 200 - i);

interface FloorNumberSelectProps {
  label: string;
  description?: string;
  value: number;
  onChange: (index: number) => void;
  error?: string;
}

/** Floor number chosen by its label ("1F", "B1", "B2"); the value is the index (1F=1, B1=0, B2=-1). */
export function FloorNumberSelect({ label, description, value, onChange, error }: FloorNumberSelectProps) {
  return (
    <NativeSelect
      label={label}
      description={description}
      value={String(value)}
      onChange={(e) => onChange(Number(e.currentTarget.value))}
      data={FLOOR_INDEXES.map((i) => ({ value: String(i), label: floorLabel(i) }))}
      error={error}
      data-testid="floor-number"
      w={160}
    />
  );
}
