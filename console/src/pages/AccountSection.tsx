/** A titled block of the account page (./Account.tsx), labelled by its heading. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the account page. */
export function Section(props: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = `section-${props.title.toLowerCase().replaceAll(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={id}>
            {props.title}
          </Title>
          {props.description && (
            <Text size="sm" c="dimmed">
              {props.description}
            </Text>
          )}
        </div>
        {props.children}
      </Stack>
    </Paper>
  );
}
