import '@/styles/full';
import { Paper } from '@mantine/core';
import { RegisterForm } from '@/features/auth/components/register-form';

export function Component() {
  return (
    <Paper withBorder shadow="sm" p="xl" w="100%" maw={560}>
      <RegisterForm />
    </Paper>
  );
}
