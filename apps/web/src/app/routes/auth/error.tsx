import '@/styles/full';
import { Paper } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AuthErrorInfo } from '@/features/auth/components/auth-error-info';

export function Component() {
  const [params] = useSearchParams();
  return (
    <Paper withBorder shadow="sm" p="xl" w="100%" maw={560}>
      <AuthErrorInfo code={params.get('code')} />
    </Paper>
  );
}
