import { Button, Group, TextInput, type MantineSpacing } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ListSearchProps {
  /** The search as the URL holds it. */
  value: string;
  onSearch: (q: string) => void;
  label: string;
  /** The submit button's text ("Search" unless given). */
  buttonLabel?: string;
  placeholder?: string;
  testId: string;
  width?: number;
  /** `search`: the browser's search field. */
  type?: 'text' | 'search';
  /** Space between the field and the buttons. */
  gap?: MantineSpacing;
  /** Shown after the button, inside the form (a "clear" button). */
  children?: ReactNode;
}

/** A list's text search: typed freely, applied (to the URL) on submit. */
export function ListSearch({
  value,
  onSearch,
  label,
  buttonLabel,
  placeholder,
  testId,
  width,
  type,
  gap,
  children,
}: ListSearchProps) {
  const { t } = useTranslation();
  const [q, setQ] = useState(value);
  const [shown, setShown] = useState(value);
  // The URL changed from elsewhere (a "clear" button, back): the field follows.
  if (shown !== value) {
    setShown(value);
    setQ(value);
  }
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(q.trim());
      }}
    >
      <Group align="flex-end" gap={gap}>
        <TextInput
          label={label}
          type={type}
          placeholder={placeholder}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          data-testid={testId}
          w={width}
        />
        <Button type="submit" variant="light">
          {buttonLabel ?? t('people.search')}
        </Button>
        {children}
      </Group>
    </form>
  );
}
