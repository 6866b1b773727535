import { AppShell, Container, MantineProvider } from '@mantine/core';
import { useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, retainSearchParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { z } from 'zod';
import { ToastStack } from '../components/Toasts';
import { AppHeader } from '../features/shell/AppHeader';
import { NotFound } from '../features/shell/NotFound';
import { AppIntlProvider } from '../i18n/AppIntlProvider';
import { matchLocale, type Locale } from '../i18n/locale';
import { messagesQuery } from '../i18n/messages';
import { theme } from '../theme';

export interface RouterContext {
  queryClient: QueryClient;
  /** The page's locale before the `?locale=` param; the root's beforeLoad overrides it for every route below. */
  locale: Locale;
}

const rootSearch = z.object({ locale: z.string().optional().catch(undefined) });

export const Route = createRootRouteWithContext<RouterContext>()({
  validateSearch: rootSearch,
  // Keeps a chosen ?locale= on every link, so the language sticks while browsing.
  search: { middlewares: [retainSearchParams(['locale'])] },
  beforeLoad: ({ search, context }) => ({ locale: matchLocale(search.locale) ?? context.locale }),
  loader: ({ context }) => context.queryClient.ensureQueryData(messagesQuery(context.locale)),
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  const { locale } = Route.useRouteContext();
  // The loader has put this locale's catalogue in the cache, so this never suspends on a fresh navigation.
  const { data: messages } = useSuspenseQuery(messagesQuery(locale));
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <AppIntlProvider locale={locale} messages={messages}>
        <ToastStack />
        <AppShell header={{ height: 64 }} padding={0}>
          <AppShell.Header>
            <AppHeader locale={locale} />
          </AppShell.Header>
          <AppShell.Main bg="gray.0">
            <Container size="lg" py={{ base: 'lg', sm: 'xl' }} px={{ base: 'md', sm: 'lg' }}>
              <Outlet />
            </Container>
          </AppShell.Main>
        </AppShell>
      </AppIntlProvider>
    </MantineProvider>
  );
}
