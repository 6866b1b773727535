import { MantineProvider } from '@mantine/core';
import { useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, retainSearchParams, useMatches } from '@tanstack/react-router';
import { useEffect } from 'react';
import { z } from 'zod';
import { LocaleDates } from '../components/DateFields';
import { ToastStack } from '../components/Toasts';
import { NotFound } from '../features/shell/NotFound';
import { PublicShell } from '../features/shell/PublicShell';
import { AppIntlProvider } from '../i18n/AppIntlProvider';
import { matchLocale, type Locale } from '../i18n/locale';
import { messagesQuery } from '../i18n/messages';
import { cssVariablesResolver, theme } from '../theme';

export interface RouterContext {
  queryClient: QueryClient;
  /** The page's locale before the `?locale=` param; the root's beforeLoad overrides it for every route below. */
  locale: Locale;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The area draws its own frame (the manage area, the staff console); other pages sit in the public one. */
    ownShell?: boolean;
  }
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
  // A failed load shows its error (or the staff console's second-factor page) in the public frame: an area's
  // error component takes the place of its shell, which may need what failed to load.
  const ownShell = useMatches({ select: (matches) => matches.some((m) => m.staticData.ownShell) && !matches.some((m) => m.status === 'error') });
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <AppIntlProvider locale={locale} messages={messages}>
        <LocaleDates locale={locale}>
          <ToastStack />
          {ownShell ? (
            <Outlet />
          ) : (
            <PublicShell locale={locale}>
              <Outlet />
            </PublicShell>
          )}
        </LocaleDates>
      </AppIntlProvider>
    </MantineProvider>
  );
}
