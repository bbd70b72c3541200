import { Alert, Anchor, Button, FileInput, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { floorLabel } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { useImportInitData } from '../api/import-init-data';
import { exampleInitDataHref } from '../example';
import { parseInitData, type ParsedInitData } from '../parse-init-data';

export function InitDataImport() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [parsed, setParsed] = useState<ParsedInitData | null>(null);
  const importData = useImportInitData();

  const onFile = async (f: File | null) => {
    setFile(f);
    importData.reset();
    setParsed(f ? parseInitData(await f.text()) : null);
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('initData.title')}
      </Title>
      <Text>{t('initData.intro')}</Text>
      <Anchor href={exampleInitDataHref} download="init-data-example.json" data-testid="init-data-example">
        {t('initData.downloadExample')}
      </Anchor>
      <FileInput
        label={t('initData.file')}
        accept="application/json,.json"
        value={file}
        onChange={(f) => void onFile(f)}
        clearable
        data-testid="init-data-file"
      />
      {parsed && !parsed.ok && parsed.notJson && (
        <Alert color="red" role="alert">
          {t('initData.notJson')}
        </Alert>
      )}
      {parsed && !parsed.ok && !parsed.notJson && (
        <Alert color="red" role="alert" title={t('initData.problems', { count: parsed.problems.length })}>
          <List size="sm" data-testid="init-data-problems">
            {parsed.problems.map((p, i) => (
              <List.Item key={`${p.path}-${i}`}>
                <code>{p.path}</code>: {messageText(p.message)}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {parsed?.ok && (
        <Paper withBorder p="md" data-testid="init-data-preview">
          <Title order={2} size="h4" mb="xs">
            {t('initData.preview')}
          </Title>
          <Text>
            {t('initData.organization')}: <strong>{parsed.data.organization.name}</strong>
          </Text>
          <Table mt="xs" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('initData.buildings')}</Table.Th>
                <Table.Th>{t('initData.floors')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parsed.data.buildings.map((b, i) => (
                <Table.Tr key={`${b.name}-${i}`}>
                  <Table.Td>{b.name}</Table.Td>
                  <Table.Td>{b.floors.map((f) => `${floorLabel(f.index)} ${f.name}`).join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text mt="xs">{t('initData.operatorsCount', { count: parsed.data.operators.length })}</Text>
          <Group justify="flex-end" mt="md">
            <Button
              onClick={() => importData.mutate(parsed.data)}
              loading={importData.isPending}
              disabled={importData.isSuccess}
              data-testid="init-data-submit"
            >
              {t('initData.submit')}
            </Button>
          </Group>
        </Paper>
      )}
      {importData.isSuccess && (
        <Alert color="green" role="status" data-testid="init-data-done">
          {t('initData.done', importData.data)}
        </Alert>
      )}
      {importData.isError && (
        <Alert color="red" role="alert" data-testid="init-data-error">
          <Text>{errorText(importData.error)}</Text>
          {isApiError(importData.error) && importData.error.details.length > 0 && (
            <>
              <Text size="sm" mt="xs">
                {t('initData.duplicateDetails')}
              </Text>
              <List size="sm">
                {importData.error.details.map((d, i) => (
                  <List.Item key={`${d.path}-${i}`}>
                    <code>{d.path}</code>: {messageText(d.message)}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </Alert>
      )}
    </Stack>
  );
}
