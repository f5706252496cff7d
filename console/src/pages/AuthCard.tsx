/**
 * The frame of the pages before sign-in: a centred card with the product name and the page's title.
 */
import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={440} py={48} component="main">
      <Stack gap="xs" mb="md" align="center">
        <Text fw={700} size="lg">
          Meridian
        </Text>
        <Title order={1} size="h2">
          {title}
        </Title>
      </Stack>
      <Paper withBorder shadow="sm" p="lg" radius="md">
        {children}
      </Paper>
    </Container>
  );
}
