import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NotFound } from './features/shell/NotFound';
import { pageLocale } from './i18n/locale';
import { routeTree } from './routeTree.gen';

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });

const router = createRouter({
  routeTree,
  context: { queryClient, locale: pageLocale() },
  defaultPreload: 'intent',
  // Loaders read through the query cache, so the router need not cache on its own.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  // An unknown path inside an area shows the not-found page in that area's shell.
  defaultNotFoundComponent: NotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
