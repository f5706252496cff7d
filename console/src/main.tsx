/**
 * The console's entry: Mantine (with the page's CSP nonce for the styles it injects), TanStack Query, and the app.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './console.css';
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

/** The nonce the server put into this page (server/http/console.ts); Mantine's `<style>` elements carry it. */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

/**
 * Mantine's defaults, with filled buttons dark enough for white text at WCAG AA contrast (4.5:1), and tables wider
 * than the screen showing their scrollbar whenever they overflow (not only on hover), so a phone shows there is more.
 */
const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  components: { TableScrollContainer: { defaultProps: { scrollAreaProps: { type: 'auto' } } } },
});

/** Dimmed text one shade stronger than Mantine's default, for 4.5:1 contrast in both themes. */
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] as string },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] as string },
});

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      getStyleNonce={() => nonce}
    >
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
