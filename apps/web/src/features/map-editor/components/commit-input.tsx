import { TextInput } from '@mantine/core';
import { useState } from 'react';

interface CommitInputProps {
  label: string;
  value: string;
  disabled?: boolean;
  /** Answers an error text to show, or null when the value was taken. */
  onCommit: (text: string) => string | null;
  testId?: string;
}

/** A text field that changes the map when it loses focus or on Enter (one undo step per edit). */
export function CommitInput({ label, value, disabled, onCommit, testId }: CommitInputProps) {
  const [draft, setDraft] = useState<{ base: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The map changed underneath (undo, drag): show the new value.
  const text = draft && draft.base === value ? draft.text : value;
  const commit = () => {
    if (!draft || draft.text === value) {
      setDraft(null);
      return;
    }
    const problem = onCommit(draft.text);
    setError(problem);
    if (!problem) setDraft(null);
  };
  return (
    <TextInput
      size="xs"
      label={label}
      value={text}
      disabled={disabled}
      error={error}
      data-testid={testId}
      onChange={(e) => {
        setDraft({ base: value, text: e.currentTarget.value });
        setError(null);
      }}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') {
          setDraft(null);
          setError(null);
        }
      }}
    />
  );
}
