import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorStore } from '../model/store';
import { useStoreChannel } from './use-store';

/** Asks for the name of the partial map just drawn (the tool waits in its `naming` state). */
export function PartialPrompt({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  useStoreChannel(store, 'model');
  const [name, setName] = useState('');
  const opened = store.prompt === 'partialMapName';
  const cancel = () => {
    store.send({ type: 'cancel', world: { x: 0, y: 0 }, screen: { x: 0, y: 0 }, button: 0, shiftKey: false, key: '' });
    setName('');
  };
  return (
    <Modal opened={opened} onClose={cancel} title={t('mapEditor.partialPrompt.title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          store.submitPrompt(name);
          setName('');
        }}
      >
        <Stack>
          <TextInput
            label={t('mapEditor.partialPrompt.label')}
            value={name}
            maxLength={40}
            required
            data-autofocus
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="partial-name"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!name.trim()}>
              {t('mapEditor.partialPrompt.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
